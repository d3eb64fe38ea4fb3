"""Exceptions of the vision layer, rooted in VisionError."""


class VisionError(Exception):
    """Root of every error the vision layer raises for trouble a user can fix."""


class CameraError(VisionError, OSError):
    """A camera that is missing, cannot be opened, or stopped delivering frames."""


class BackendMissingError(VisionError, ImportError):
    """An optional backend (picamera2, ...) chosen but not installed; the message says how to install it."""


class ModelError(VisionError):
    """The card classifier model is missing or unreadable."""


class RecognitionFault(VisionError):
    """The recognizer failed on one picture: a fault in Muggins, not in the picture. The message names
    the fault and where it arose, for a bug report; the caller gives that picture up and goes on."""
