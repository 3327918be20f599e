"""Translated strings the lobby, table room and notice scripts show, handed to them as JSON in the page."""

from django.utils.translation import gettext as _


def client_strings() -> dict[str, str]:
    return {
        "loading": _("Loading…"),
        "empty": _("No open tables. Create one!"),
        "public": _("Public"),
        "private": _("Private"),
        "rated": _("Rated"),
        "casual": _("Casual"),
        "open_seat": _("Open seat"),
        "bot": _("Bot (%(level)s)"),
        "you": _("you"),
        "host": _("host"),
        "join": _("Join"),
        "sit_here": _("Sit here"),
        "leave": _("Leave"),
        "open": _("Open"),
        "start": _("Start the match"),
        "fill_bots": _("Fill empty seats with bots"),
        "remove_bot": _("Remove bot"),
        "seats_free": _("%(n)s open seats"),
        "invite": _("Invitation link"),
        "copy": _("Copy"),
        "copied": _("Copied"),
        "started": _("The match has started."),
        "go_to_match": _("Go to the match"),
        "not_open": _("This table is no longer open."),
        "live": _("%(s)s s a move"),
        "days": _("%(d)s d a move"),
        "your_turn": _("Your turn in match #%(id)s"),
        "reminder": _("Reminder: your move in match #%(id)s is due soon"),
        "autopilot": _("Time ran out: the autopilot moved for you in match #%(id)s"),
        "handed_over": _("A bot now plays your seat in match #%(id)s"),
        "play": _("Play"),
        "dismiss": _("Dismiss"),
        "resign": _("Resign"),
        "due": _("Turn ends %(when)s"),
        "resign_confirm": _("Resign? A bot plays your seat for the rest of the match."),
    }
