"""``python -m callbreak_client play --url SITE --token T (--bot NAME | --bhoos URL)``."""

from __future__ import annotations

import argparse
import logging
import os

from .players import BhoosPlayer, EnginePlayer, Player
from .runner import Runner
from .site import Site


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="callbreak_client", description="Play Call Break as a bot account.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="answer my turns and invitations until stopped (or --matches are over)")
    play.add_argument("--url", required=True, help="the site, e.g. http://127.0.0.1:8000")
    play.add_argument("--token", default=os.environ.get("CALLBREAK_TOKEN"),
                      help="the bot account's API token (or CALLBREAK_TOKEN)")
    who = play.add_mutually_exclusive_group(required=True)
    who.add_argument("--bot", help="one of the engine's bots (heuristic, strong, normal, ...)")
    who.add_argument("--bhoos", metavar="URL", help="a bot server speaking the Bhoos 2022 protocol")
    play.add_argument("--matches", type=int, default=0, help="stop after this many matches are over (0: never)")
    play.add_argument("--events", choices=["stream", "socket"], default="stream",
                      help="the NDJSON stream (default) or the account socket /ws/me/")
    play.add_argument("--decline-invitations", action="store_true", help="do not accept table invitations")
    play.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    if not args.token:
        parser.error("--token (or CALLBREAK_TOKEN) is required")
    player: Player = BhoosPlayer(args.bhoos) if args.bhoos else EnginePlayer(args.bot)
    site = Site(args.url, args.token)
    logging.getLogger("callbreak_client").info("playing as %s with %s", site.me()["username"], player.name)
    return Runner(site, player, matches=args.matches, accept=not args.decline_invitations,
                  transport=args.events).run()
