"""Seating: which player a zone belongs to, where the crib lies, and the words for a place."""

from device.seating import Seating


def test_seats_follow_the_players_order_and_the_centre_belongs_to_nobody():
    s = Seating(("North", "South"))
    assert s.zones == ("seat:0", "seat:1", "centre") and not s.has_crib_zone
    assert s.player_at("seat:1") == "South" and s.zone_of("North") == "seat:0"
    assert s.player_at("centre") is None and s.player_at("seat:2") is None


def test_the_crib_lies_in_its_own_zone_or_else_in_front_of_the_dealer():
    assert Seating(("North", "South")).crib_zone("South") == "seat:1"
    assert Seating(("North", "South"), ("seat:0", "seat:1", "centre", "crib")).crib_zone("South") == "crib"


def test_places_are_named_for_the_players():
    s = Seating(("North", "South"), ("seat:0", "seat:1", "centre", "crib"))
    assert s.place_words("seat:0", dealer="North") == "in front of the dealer"
    assert s.place_words("seat:1", dealer="North") == "in front of South"
    assert s.place_words("centre", dealer="North") == "in the centre"
    assert s.place_words("crib", dealer="North") == "in the crib"
