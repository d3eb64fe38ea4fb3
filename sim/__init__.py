"""The synthetic world: rendered card faces and table scenes, a simulated camera, table and game.

Used by the demo, the tests, the benchmarks and training; never by the device at run time
(tests/test_layering.py holds vision and `muggins run` to that).

- render/: card faces from SVG and font decks, backgrounds, props, composed scenes, the camera's look;
- assets/: the held-out decks' faces, pre-rendered and committed;
- table_script.py: a seeded game as table happenings and panel presses (the rules engine's autoplay);
- frames.py: each scripted table drawn as the camera would see it (and written as a replay);
- parts.py: the device's simulated camera (those pictures, as frames) and panel (the script's presses);
- simulation.py: the script played step by step through the device built with those parts;
- demo_game.py: `muggins demo` put together: the device (device/app.py) with simulated parts.
"""
