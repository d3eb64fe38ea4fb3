"""Zones: validation of the config's polygons, which zone a point is in, the default layouts."""

import json

import numpy as np
import pytest

from vision.errors import VisionError
from vision.zone_names import CENTRE, CRIB, seat, seat_number, zone_order
from vision.zones import ZoneError, Zones, default_zones, zones_for_game

SQUARE = [[0, 0], [10, 0], [10, 10], [0, 10]]


def shifted(points, dx=0, dy=0):
    return [[x + dx, y + dy] for x, y in points]


def simple_config():
    return {"seat:0": shifted(SQUARE, dy=20), "seat:1": SQUARE, "centre": shifted(SQUARE, dx=20)}


def test_points_go_to_their_zone_and_outside_is_none():
    zones = Zones.from_config(simple_config())
    assert zones.zone_of((5, 25)) == "seat:0"
    assert zones.zone_of((5, 5)) == "seat:1"
    assert zones.zone_of((25, 5)) == "centre"
    assert zones.zone_of((15, 15)) is None
    assert zones.zone_of((10, 5)) == "seat:1"          # on the edge counts as inside


def test_overlapping_zones_give_the_point_to_the_one_it_is_deepest_in():
    config = {"seat:0": [[0, 0], [10, 0], [10, 10], [0, 10]], "centre": [[8, 0], [30, 0], [30, 10], [8, 10]]}
    zones = Zones.from_config(config)
    assert zones.zone_of((8.5, 5)) == "seat:0"          # 1.5 inside seat:0, 0.5 inside centre
    assert zones.zone_of((9.8, 5)) == "centre"


def test_concave_zones_work():
    ell = [[0, 0], [10, 0], [10, 4], [4, 4], [4, 10], [0, 10]]
    zones = Zones.from_config({"seat:0": ell, "centre": shifted(SQUARE, dx=50)})
    assert zones.zone_of((2, 8)) == "seat:0"
    assert zones.zone_of((8, 8)) is None


def test_round_trip_through_json():
    zones = default_zones(1280, 720, 3, crib=True)
    again = Zones.from_config(json.loads(json.dumps(zones.to_config())))
    assert again.to_config() == zones.to_config()
    assert again.names == zones.names


def test_names_are_ordered_seats_centre_crib_whatever_the_config_order():
    config = {"crib": shifted(SQUARE, dx=40), "centre": shifted(SQUARE, dx=20),
              "seat:1": SQUARE, "seat:0": shifted(SQUARE, dy=20)}
    zones = Zones.from_config(config)
    assert zones.names == ("seat:0", "seat:1", "centre", "crib")
    assert zones.players == 2 and zones.has_crib and "crib" in zones and len(zones) == 4


def test_center_is_read_as_centre():
    config = simple_config()
    config["center"] = config.pop("centre")
    assert CENTRE in Zones.from_config(config)


@pytest.mark.parametrize("change, message", [
    ({"seat:0": [[0, 0], [1, 1]]}, "at least 3 corners"),
    ({"seat:0": [[0, 0], ["a", 1], [2, 2]]}, "numbers"),
    ({"seat:0": [0, 1, 2, 3]}, r"\[x, y\] pairs"),
    ({"seat:0": [[0, 0], [1, 1], [2, 2]]}, "no area"),
    ({"seat:0": [[0, 0], [10, 10], [10, 0], [0, 10]]}, "edges cross"),
    ({"seat:0": [[0, 0], [float("nan"), 1], [2, 0]]}, "finite"),
    ({"table": SQUARE}, "unknown zone 'table'"),
    ({"seat:3": SQUARE}, "without gaps"),
    ({"center": SQUARE}, "given twice"),
])
def test_bad_zones_get_clear_messages(change, message):
    config = {**simple_config(), **change}
    with pytest.raises(ZoneError, match=message):
        Zones.from_config(config)


def test_a_centre_and_a_seat_are_required():
    with pytest.raises(ZoneError, match="centre"):
        Zones.from_config({"seat:0": SQUARE})
    with pytest.raises(ZoneError, match="no seat"):
        Zones.from_config({"centre": SQUARE})
    with pytest.raises(VisionError):
        Zones.from_config([SQUARE])


def test_zone_errors_are_vision_errors_and_value_errors():
    assert issubclass(ZoneError, VisionError) and issubclass(ZoneError, ValueError)


def test_seat_names():
    assert seat(2) == "seat:2" and seat_number("seat:2") == 2 and seat_number("crib") is None


def test_scaled_zones_follow_a_resized_frame():
    zones = Zones.from_config(simple_config()).scaled(2.0)
    assert zones.zone_of((10, 50)) == "seat:0"
    assert zones.zone_of((5, 15)) == "seat:1"
    assert zones.zone_of((5, 25)) is None


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("crib", [False, True])
def test_default_layout_has_a_seat_per_player_and_seats_do_not_overlap(players, crib):
    width, height = 1280, 720
    zones = default_zones(width, height, players, crib=crib)
    assert zones.names == tuple(seat(i) for i in range(players)) + (CENTRE,) + ((CRIB,) if crib else ())
    ys, xs = np.mgrid[0:height:8, 0:width:8]
    owners = {}
    for x, y in zip(xs.ravel(), ys.ravel()):
        inside = [n for n in zones if cv_inside(zones[n], (x, y))]
        assert len(inside) <= 1, f"{(x, y)} in {inside}"
        if inside:
            owners[inside[0]] = owners.get(inside[0], 0) + 1
    assert set(owners) == set(zones.names)              # every zone holds some of the frame
    for poly in zones.polygons.values():
        assert poly[:, 0].min() >= 0 and poly[:, 0].max() <= width
        assert poly[:, 1].min() >= 0 and poly[:, 1].max() <= height


def cv_inside(poly, point):
    import cv2
    return cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (float(point[0]), float(point[1])), False) >= 0


def test_default_layout_puts_the_near_player_at_the_bottom_and_the_centre_in_the_middle():
    zones = default_zones(1280, 720, 2)
    assert zones.zone_of((640, 700)) == "seat:0"
    assert zones.zone_of((640, 20)) == "seat:1"
    assert zones.zone_of((640, 360)) == "centre"


def test_four_players_sit_clockwise_with_partners_opposite():
    zones = default_zones(1280, 720, 4)
    assert zones.zone_of((1000, 650)) == "seat:0"       # near right
    assert zones.zone_of((300, 650)) == "seat:1"        # near left: play passes to the left
    assert zones.zone_of((300, 70)) == "seat:2"         # far left, facing seat:0
    assert zones.zone_of((1000, 70)) == "seat:3"


@pytest.mark.parametrize("players, size", [(1, (640, 480)), (5, (640, 480)), (2, (8, 8))])
def test_default_layout_refuses_what_it_cannot_lay_out(players, size):
    with pytest.raises(ZoneError):
        default_zones(*size, players)


def test_a_game_without_zones_in_its_config_gets_the_default_layout():
    zones = zones_for_game({}, 1280, 720, 3)
    assert zones.to_config() == default_zones(1280, 720, 3).to_config()


def test_a_game_gets_its_configured_zones_when_they_fit():
    zones = zones_for_game(simple_config(), 640, 480, 2)
    assert zones.zone_of((5, 25)) == "seat:0"


def test_configured_zones_must_match_the_players_and_the_frame():
    with pytest.raises(ZoneError, match="2 seats but the game has 3 players"):
        zones_for_game(simple_config(), 640, 480, 3)
    far_away = {**simple_config(), "centre": shifted(SQUARE, dx=2000)}
    with pytest.raises(ZoneError, match="'centre' lies outside the 640x480 frame"):
        zones_for_game(far_away, 640, 480, 2)


def test_zones_sort_seats_by_number_then_the_rest_by_name():
    assert sorted(["crib", "seat:10", "centre", "seat:2"], key=zone_order) == ["seat:2", "seat:10", "centre", "crib"]
