"""A deal looked back at: the cards shown, each claim against the true count, and the play card by card,
with the card a player held that would have pegged more at that moment (cribbage.review decides).

The cards a player held at each of their plays are those they played later in the deal and those
shown in their hand: known once the play is over. Where the game ended in the play, only the cards
played are known, and the look-back says so. A card misread in the play and put right at the show is
looked back at as the card played, the count and points as pegged; where the cards as really played
take a count past 31 (the device judged the card it read), no better play is looked for in that deal.
"""

from __future__ import annotations

from cribbage.errors import CribbageError
from cribbage.review import better_plays
from device.record_games import Deal, Game


def play_review(deal: Deal) -> list[dict]:
    """The play, one row per card, go and point, with `better` where a held card would have pegged more."""
    shown = {s["player"]: s["cards"] for s in deal.shows if not s["crib"]}
    cards = [r for r in deal.plays if r["type"] == "CardPlayed"]
    hands = {p: [r["card"] for r in cards if r["player"] == p] for p in deal.players}
    for player, hand in shown.items():
        hands.setdefault(player, []).extend(c for c in hand if c not in hands[player])
    try:
        betters = iter(better_plays([(r["player"], r["card"], bool(r.get("new_series"))) for r in cards], hands))
    except CribbageError:  # a card put right at the show takes a count, as really played, past 31
        betters = iter([None] * len(cards))
    gone: dict[str, set] = {p: set() for p in hands}
    rows = []
    for r in deal.plays:
        kind, player = r["type"], r.get("player")
        if kind == "CardPlayed":
            better = next(betters)
            rows.append({"type": "card", "player": player, "card": r["card"], "misread": r.get("misread"),
                         "count": r.get("count"),
                         "points": r.get("points") or 0, "reasons": list(r.get("reasons") or []),
                         "new_series": bool(r.get("new_series")),
                         "held": [c for c in hands.get(player, ()) if c not in gone.get(player, ())],
                         "better": better.to_dict() if better else None})
            gone.setdefault(player, set()).add(r["card"])
        elif kind == "GoSaid":
            rows.append({"type": "go said", "player": player, "count": r.get("count"),
                         "inferred": bool(r.get("inferred"))})
        else:
            rows.append({"type": "go" if kind == "GoPegged" else "last card", "player": player,
                         "points": r.get("points") or 0, "count": r.get("count")})
    return rows


def look_back(game: Game, deal_no: int) -> dict:
    """Everything the journal knows of one deal of a game, JSON-ready."""
    deal = next((d for d in game.deals if d.no == deal_no), None)
    if deal is None:
        raise LookupError(f"game {game.number} has no deal {deal_no} (it has {len(game.deals)})")
    shows = []
    for s in deal.shows:
        claim = s["claim"]
        shows.append({"player": s["player"], "crib": s["crib"], "cards": s["cards"], "claim": claim,
                      "missed_told": s["missed_told"], "muggins": s["muggins"], "disputed": s["disputed"]})
    return {"game": game.number, "deal": deal.no, "variant": game.variant, "dealer": deal.dealer,
            "players": game.players, "starter": deal.starter, "shows": shows, "play": play_review(deal),
            "play_over": deal.play_over,
            "known": ("the cards each player held: those played and shown" if deal.play_over else
                      "the game ended in the play: only the cards played are known"),
            "points": deal.points,
            "disputes": [{k: v for k, v in d.items() if k != "show"} for d in deal.disputes]}
