"""A fault inside the recognizer becomes a message about one picture, never a stopped program.

The commands that read one picture at a time (`muggins recognize`, learning a deck from photos or by
suits, measuring a card) read it through recognize_picture, so a bug met on one picture is told, with
where it arose, and that picture alone is given up; the camera loop (device/eyes.py) skips such a
frame and tells fault_text.
"""

from __future__ import annotations

import traceback
from pathlib import Path

from vision.errors import RecognitionFault, VisionError


def fault_text(exc: BaseException) -> str:
    """'ZeroDivisionError: float division by zero at one_card.py:48': the fault and its innermost place."""
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    place = f" at {Path(where.filename).name}:{where.lineno}" if where else ""
    return f"{type(exc).__name__}: {exc}{place}"


def recognize_picture(recognizer, image) -> list:
    """recognizer.recognize(image); RecognitionFault (a VisionError, so commands show it as a message)
    where it fails for any reason other than a VisionError of its own."""
    try:
        return recognizer.recognize(image)
    except VisionError:
        raise
    except Exception as exc:
        raise RecognitionFault(f"the picture could not be read ({fault_text(exc)}); "
                               "please report this as a bug") from exc
