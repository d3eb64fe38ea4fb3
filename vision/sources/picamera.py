"""The Raspberry Pi camera (Camera Module 3, with continuous autofocus) through picamera2.

picamera2 is imported only when a PiCameraSource is made, so `import vision` works anywhere;
where it is missing the message says how to install it.
"""

from __future__ import annotations

import numpy as np

from vision.errors import BackendMissingError, CameraError

from .base import FrameSource

INSTALL_HINT = "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2`"

#: libcamera's AfModeEnum.Continuous, used if libcamera's enum cannot be imported.
_AF_MODE_CONTINUOUS = 2


def _continuous_af_mode():
    try:
        from libcamera import controls
    except ImportError:
        return _AF_MODE_CONTINUOUS
    return controls.AfModeEnum.Continuous


class PiCameraSource(FrameSource):
    """Frames from a Pi camera as BGR arrays.

    size: (width, height) of the frames. camera_num: which camera on a Pi with two.
    fps: frame rate to ask for (None: the camera's default).
    autofocus: continuous autofocus where the camera has it (Camera Module 3); others ignore it.
    timeout: seconds to wait for a frame before calling the camera stalled (CameraError).
    """

    def __init__(self, size: tuple[int, int] = (1280, 720), *, camera_num: int = 0, fps: float | None = None,
                 autofocus: bool = True, timeout: float = 3.0) -> None:
        super().__init__()
        self.name = "Pi camera" if camera_num == 0 else f"Pi camera {camera_num}"
        self.timeout = timeout
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise BackendMissingError(INSTALL_HINT) from exc
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera itself failing to start
            raise CameraError(f"cannot list Pi cameras: {exc}") from exc
        if len(cameras) <= camera_num:
            raise CameraError(f"no {self.name} found: check the ribbon cable (contacts facing the right way) "
                              "and that `rpicam-hello --list-cameras` lists it")
        self._camera = None
        try:
            self._camera = Picamera2(camera_num)
            # RGB888 is stored B, G, R per pixel: exactly OpenCV's BGR order.
            config = self._camera.create_video_configuration(
                main={"size": (int(size[0]), int(size[1])), "format": "RGB888"},
                controls={"FrameRate": float(fps)} if fps else {})
            self._camera.configure(config)
            self._camera.start()
            if autofocus and "AfMode" in self._camera.camera_controls:
                self._camera.set_controls({"AfMode": _continuous_af_mode()})
        except Exception as exc:
            self._release()
            raise CameraError(f"cannot start the {self.name}: {exc} (is another program using it?)") from exc

    def _next_image(self) -> tuple[np.ndarray, float | None]:
        try:
            job = self._camera.capture_array("main", wait=False)
            image = self._camera.wait(job, timeout=self.timeout)
        except TimeoutError as exc:
            raise CameraError(f"{self.name} stopped delivering frames (none for {self.timeout:g} s)") from exc
        except Exception as exc:
            raise CameraError(f"{self.name} failed: {exc}") from exc
        return image, None

    def _release(self) -> None:
        camera, self._camera = self._camera, None
        if camera is None:
            return
        for step in (camera.stop, camera.close):
            try:
                step()
            except Exception:  # releasing a failed camera must not raise a second error
                pass
