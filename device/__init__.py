"""The device: LED pegboard, panel, voice, configuration, journal, game controller and command line."""
