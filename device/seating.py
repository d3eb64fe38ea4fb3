"""Who sits where: the table's zones matched to the players, and the words for each place."""

from __future__ import annotations

from typing import Iterable, Sequence

from vision.zone_names import CENTRE, CRIB, seat, seat_number


class Seating:
    """Seat zones by player order ('seat:0' is the first player's), the centre, and maybe a crib zone."""

    def __init__(self, players: Sequence[str], zones: Iterable[str] = ()):
        self.players = tuple(players)
        self.zones = tuple(zones) or tuple(seat(i) for i in range(len(self.players))) + (CENTRE,)
        self.has_crib_zone = CRIB in self.zones

    def player_at(self, zone: str) -> str | None:
        """The player whose seat this zone is; None for the centre, the crib or a seat nobody has."""
        number = seat_number(zone)
        return self.players[number] if number is not None and number < len(self.players) else None

    def zone_of(self, player: str) -> str:
        return seat(self.players.index(player))

    def crib_zone(self, dealer: str) -> str:
        """Where the crib is turned up: its own zone if the table has one, else the dealer's seat."""
        return CRIB if self.has_crib_zone else self.zone_of(dealer)

    def place_words(self, zone: str, dealer: str | None) -> str:
        """'in front of the dealer', 'in front of North', 'in the centre', 'in the crib'."""
        player = self.player_at(zone)
        if player is not None:
            return "in front of the dealer" if player == dealer else f"in front of {player}"
        if zone == CENTRE:
            return "in the centre"
        if zone == CRIB:
            return "in the crib"
        return f"in the {zone}"
