"""Exceptions of the device layer, rooted in DeviceError."""


class DeviceError(Exception):
    """Root of every error the device layer raises for trouble a user can fix."""


class UsageError(DeviceError, ValueError):
    """Command-line arguments that do not make sense together; the message says what to give instead."""


class ConfigError(DeviceError, ValueError):
    """A configuration file that is missing, unreadable or holds a bad value (the message says which)."""


class HardwareMissingError(DeviceError, ImportError):
    """A hardware backend chosen but its library is missing; the message says what to install."""


class JournalError(DeviceError):
    """A journal that is corrupt or belongs to something else; it is set aside, never overwritten."""
