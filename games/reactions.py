"""Who reacts to what: every concept's reactions to events, registered here, at the top, in the order they
run for one event. A match's own reactions come first (its cache, its sockets, its timers, then its bot's
turn), then the bots' events, the notices, the ratings and the analyses; a notice recorded is then pushed.
``GamesConfig.ready`` calls ``register``."""

from .accounts import reactions as accounts
from .accounts.events import AccountDeactivated, CredentialsRevoked
from .analysis import reactions as analysis
from .analysis.events import AnalysisProgress, AnalysisQueued
from .bots import reactions as bots
from .matches import reactions as matches
from .matches.botturns import reactions as botturns
from .matches.events import MatchAdvanced, ReminderDue, SeatsChanged, TurnAutoplayed
from .notices import reactions as notices
from .notices.events import NoticeDue, NoticeRecorded
from .offline.events import OfflineMatchStored
from .platform import outbox
from .push import reactions as push
from .quickmatch import reactions as quickmatch
from .quickmatch.events import HereCounted, SeekOpened, SeeksMatched
from .ratings import reactions as ratings
from .tables import reactions as tables
from .tables.events import BotInvited, RematchAsked, RematchChanged, TableChanged
from .tabletalk import reactions as tabletalk
from .tabletalk.events import ChatSent
from .tournaments import reactions as tournaments
from .tournaments import reads as tournament_reads
from .tournaments.events import ArenaBatchFull, ArenaFreed, ArenaJoined, ArenaSeated, StandingsChanged
from .watching import reactions as watching
from .watching import reads as watching_reads


def register() -> None:
    outbox.register(MatchAdvanced, matches.match_advanced, botturns.bot_to_act, bots.match_advanced,
                    notices.your_turn, ratings.rate_finished_match, analysis.review_finished_match,
                    watching.match_moved, tournaments.match_ended)
    outbox.register(SeatsChanged, matches.seats_changed, botturns.seat_handed_to_bot, watching.match_moved,
                    tournaments.match_aborted)
    outbox.register(ChatSent, tabletalk.chat_sent)
    outbox.register(TurnAutoplayed, notices.turn_autoplayed)
    outbox.register(ReminderDue, notices.reminder_due)
    outbox.register(RematchAsked, notices.rematch_asked)
    outbox.register(NoticeDue, notices.notice_due)
    outbox.register(NoticeRecorded, push.notice_recorded)
    outbox.register(CredentialsRevoked, accounts.close_sockets)
    outbox.register(AccountDeactivated, matches.account_deactivated)
    outbox.register(TableChanged, tables.table_changed)
    outbox.register(RematchChanged, tables.rematch_changed)
    outbox.register(BotInvited, bots.bot_invited)
    outbox.register(OfflineMatchStored, analysis.review_stored_match)
    outbox.register(AnalysisQueued, analysis.compute)
    outbox.register(AnalysisProgress, analysis.progress)
    outbox.register(SeekOpened, quickmatch.seek_opened)
    outbox.register(SeeksMatched, quickmatch.seeks_matched)
    outbox.register(HereCounted, quickmatch.here_counted)
    outbox.register(ArenaJoined, tournaments.pair_soon)
    outbox.register(ArenaFreed, tournaments.pair_soon)
    outbox.register(ArenaBatchFull, tournaments.pair_rest)
    outbox.register(ArenaSeated, tournaments.seated)
    outbox.register(StandingsChanged, tournaments.standings_changed)
    # the Watch page's arena section: the arenas' top running tables
    if tournament_reads.top_tables not in watching_reads.ARENA_TOP_TABLES:
        watching_reads.ARENA_TOP_TABLES.append(tournament_reads.top_tables)
