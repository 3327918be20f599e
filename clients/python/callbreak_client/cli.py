"""``python -m callbreak_client play --url SITE --token T (--bot NAME | --bhoos URL)``, ``ladder`` (the same,
seeking match after match in the bots' quick-match pool, the rated bot ladder) and ``arena`` (the same, in an arena
of bot accounts until it ends)."""

from __future__ import annotations

import argparse
import logging
import os

from .players import BhoosPlayer, EnginePlayer, Player
from .runner import Runner
from .site import Site


def _common(command: argparse.ArgumentParser) -> None:
    command.add_argument("--url", required=True, help="the site, e.g. http://127.0.0.1:8000")
    command.add_argument("--token", default=os.environ.get("CALLBREAK_TOKEN"),
                         help="the bot account's API token (or CALLBREAK_TOKEN)")
    who = command.add_mutually_exclusive_group(required=True)
    who.add_argument("--bot", help="one of the engine's bots (heuristic, strong, normal, ...)")
    who.add_argument("--bhoos", metavar="URL", help="a bot server speaking the Bhoos 2022 protocol")
    command.add_argument("--matches", type=int, default=0, help="stop after this many matches are over (0: never)")
    command.add_argument("--events", choices=["stream", "socket"], default="stream",
                         help="the NDJSON stream (default) or the account socket /ws/me/")
    command.add_argument("--decline-invitations", action="store_true", help="do not accept table invitations")
    command.add_argument("--log-level", default="INFO")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="callbreak_client", description="Play Call Break as a bot account.")
    sub = parser.add_subparsers(dest="command", required=True)
    _common(sub.add_parser("play", help="answer my turns and invitations until stopped (or --matches are over)"))
    ladder = sub.add_parser("ladder", help="play rated bot-ladder matches: seek in the bots' quick-match pool, "
                                           "play, seek again, until stopped (or --matches are over)")
    _common(ladder)
    ladder.add_argument("--pace", choices=["live", "correspondence"], default="live",
                        help="the seek's pace (live: the site's short clock a move; a bot account has at most "
                             "BOT_MOVE_SECONDS either way)")
    arena = sub.add_parser("arena", help="play in an arena of bot accounts: join it, play whenever seated, until it "
                                         "ends (or --matches are over)")
    _common(arena)
    arena.add_argument("--arena", type=int, default=0,
                       help="the arena's id (default: the first running or upcoming arena of bot accounts)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    if not args.token:
        parser.error("--token (or CALLBREAK_TOKEN) is required")
    player: Player
    if args.bhoos:
        bridge = BhoosPlayer(args.bhoos)
        bridge.hello()  # the contest's readiness check: GET /hi until the bot answers
        player = bridge
    else:
        player = EnginePlayer(args.bot)
    site = Site(args.url, args.token)
    arena_id: int | None = None
    if args.command == "arena":
        arena_id = args.arena or next((a["id"] for a in site.arenas()
                                       if a["pool"] == "bots" and a["phase"] in ("running", "upcoming")), None)
        if arena_id is None:
            parser.error("no running or upcoming arena of bot accounts (give --arena ID)")
    where = {"ladder": " on the bot ladder", "arena": f" in arena {arena_id}"}.get(args.command, "")
    logging.getLogger("callbreak_client").info("playing as %s with %s%s", site.me()["username"], player.name, where)
    return Runner(site, player, matches=args.matches, accept=not args.decline_invitations, transport=args.events,
                  ladder=args.command == "ladder", pace=getattr(args, "pace", "live"), arena=arena_id).run()
