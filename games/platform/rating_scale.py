"""The rating people see, from the model's estimate: one number on the 1500 scale and whether it still settles.

Pure arithmetic under every concept, so the match's end view (``matches.presenters``) and the ratings' pages and
API (``ratings.reads``) show the same number from the same rows; docs/ratings.md explains it to people.
"""

from __future__ import annotations

from typing import Any

#: OpenSkill's starting estimate (``PlackettLuce().mu``): a newcomer is shown 1500.
NEW_MU = 25.0
# 20 points per unit of mu: two settled players 20 mu apart (400 points) beat each other about 10 to 1 (the
# Plackett-Luce pairwise chance at four settled seats), the odds Elo gives 400 points. A settled player's match
# then moves it by about 2 to 11 points; a newcomer's first one by about 10 to 125 (see docs/ratings.md).
SHOWN_BASE, SHOWN_SCALE = 1500, 20

#: A rating stays provisional ("1500?": shown, but listed after the settled ones) while its sigma, the model's
#: uncertainty, is above this. OpenSkill starts at 25/3 ~ 8.3; against settled opponents it falls below 5 after
#: about 10 rated matches, when one match no longer swings the number by more than about 50 points.
PROVISIONAL_SIGMA = 5.0


def shown(mu: float) -> int:
    """The rating people see for an estimate of skill ``mu``: 1500 for a newcomer, 20 points per unit of mu.

    >>> shown(25.0), shown(27.5)
    (1500, 1550)
    """
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - NEW_MU))


def is_provisional(sigma: float) -> bool:
    """Whether a rating is still settling (shown as "1500?")."""
    return sigma > PROVISIONAL_SIGMA


def shown_text(mu: float, sigma: float) -> str:
    """The rating as a page prints it: "1500", or "1500?" while provisional.

    >>> shown_text(25.0, 8.33), shown_text(26.0, 3.0)
    ('1500?', '1520')
    """
    return f"{shown(mu)}{'?' if is_provisional(sigma) else ''}"


def change_json(mu_before: float, sigma_before: float, mu_after: float, sigma_after: float) -> dict[str, Any]:
    """A rating change at one match as people see it (the shown number before and after, the change, the
    provisional marks), with the model's mu and sigma kept for programs."""
    before, after = shown(mu_before), shown(mu_after)
    return {"before": before, "after": after, "change": after - before,
            "provisional_before": is_provisional(sigma_before), "provisional": is_provisional(sigma_after),
            "text_before": shown_text(mu_before, sigma_before), "text": shown_text(mu_after, sigma_after),
            "mu_before": round(mu_before, 3), "sigma_before": round(sigma_before, 3),
            "mu": round(mu_after, 3), "sigma": round(sigma_after, 3)}
