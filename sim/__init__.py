"""The synthetic world: rendered card faces and table scenes, a simulated camera, table and game.

Used by the demo, the tests, the benchmarks and training; never by the device at run time
(tests/test_layering.py holds vision and `muggins run` to that).

- render/: card faces from SVG and font decks, backgrounds, props, composed scenes, the camera's look;
- assets/: the held-out decks' faces, pre-rendered and committed;
- table_script.py: a seeded game as table happenings and panel presses (the rules engine's autoplay);
- frames.py: each scripted table drawn as the camera would see it (and written as a replay);
- simulation.py: the script played through the real device's eyes and controller;
- demo_game.py: `muggins demo` put together.
"""
