"""Table talk: what the people at a match say to each other besides their cards (emotes, a private table's chat),
who mutes whom, and the reports staff read. Above matches: it reaches a match's people through the match socket
(``consumers.TableTalkSocket``, composed with the match's in ``games.routing``); matches knows nothing of it."""
