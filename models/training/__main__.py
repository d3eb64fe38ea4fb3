"""`python -m models.training`: render the crop set, train, calibrate, export models/cards.onnx + labels.json;
then train the whole-card network on the same scenes' lone cards: models/whole_card.onnx + whole_card.json.
With --real-crops, index crops cut from the labelled real photos join the classifier's training set
(never its validation set, which calibrates it on rendered decks as before); with --real-faces, the
same photos' whole cards join the whole-card network's, every tenth photo held apart to report on.

Everything is seeded; progress goes to stdout. The held-out decks are never rendered here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from models.training.deadline import add_arguments, budget
from models.training.decks import DEFAULT_DESIGNS, parse_designs

ROOT = Path(__file__).resolve().parents[2]
FINISHING = 2.0  # minutes kept free after the classifier's training for its calibration and export and the
#                  real photos' faces (half a minute on 2026-12-07)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m models.training", description=__doc__)
    p.add_argument("--scenes-per-deck", type=int, default=500, help="rendered scenes per training deck")
    p.add_argument("--designs", type=parse_designs, default=DEFAULT_DESIGNS,
                   help="the designs of sim.render.designs trained on, comma-separated, or all "
                        f"(default: {','.join(DEFAULT_DESIGNS)})")
    p.add_argument("--scenes-per-design", type=int, default=None,
                   help="rendered scenes per design deck (default: as a training deck)")
    p.add_argument("--font-decks", type=int, default=60,
                   help="synthetic decks with indices set in system fonts (sim/render/fontdecks.py)")
    p.add_argument("--validation-font-decks", type=int, default=10,
                   help="synthetic decks in fonts no training deck uses, for calibration and the threshold only")
    p.add_argument("--scenes-per-font-deck", type=int, default=50, help="rendered scenes per synthetic deck")
    p.add_argument("--foreign-courts", type=parse_share, default=0.0, metavar="SHARE",
                   help="this share of the training font decks letter their courts in another language (a "
                        "French V D R), learnt as not a card (sim/render/fontdecks.py); 0: none")
    p.add_argument("--foreign-decks", type=int, default=0, metavar="N",
                   help="N more training font decks, each lettering its courts in another language; 0: none")
    p.add_argument("--pixel-decks", type=int, default=0, metavar="N",
                   help="N more training font decks whose index is set in a pixel font (a computer deck's "
                        "flat-topped A); 0: none")
    p.add_argument("--four-colour", type=parse_share, default=0.0, metavar="SHARE",
                   help="this share of the training font decks printed in four colours, clubs green and "
                        "diamonds blue, as many poker decks are; 0: none")
    p.add_argument("--four-colour-decks", type=int, default=0, metavar="N",
                   help="N more training font decks, each printed in four colours, after all the others; 0: none")
    p.add_argument("--more-font-decks", type=int, default=0, metavar="N",
                   help="N more training font decks, last of all, whose rank is set in fonts no other deck "
                        "uses (sim.render.fontdecks.MORE_FONT_PACKAGES); 0: none")
    p.add_argument("--minutes", type=float, default=22.0,
                   help="training time budget (whole epochs), shared by the networks")
    p.add_argument("--whole-card-minutes", type=float, default=4.0,
                   help="training time of the whole-card network (models/training/whole_card.py)")
    p.add_argument("--networks", choices=("both", "cards", "whole-card"), default="both",
                   help="which to train: the index classifier, the whole-card network, or both")
    p.add_argument("--sizes", type=parse_sizes, default=parse_sizes("32x56,40x70"),
                   help="WIDTHxHEIGHT each network reads, comma-separated; the crops are cut at the largest "
                        "(vision.crops) and shrunk for the others")
    p.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--device", default="cpu", help="where the index classifier trains: cpu, or cuda on a GPU")
    p.add_argument("--seed", type=int, default=0,
                   help="seeds the networks' training, and the render unless --data-seed")
    p.add_argument("--data-seed", type=int, default=None,
                   help="seed of the rendered scenes, when not --seed: runs sharing it train on one render "
                        "(cached), so several --seed runs judge a recipe rather than one run")
    p.add_argument("--head", choices=("pool", "flatten"), default="pool", help="how the network's head reads its features")
    p.add_argument("--real-crops", type=parse_share, default=0.0, metavar="SHARE",
                   help="add index crops cut from the labelled real photos (models/training/real_crops.py) to "
                        "the classifier's training set, drawn as this share of every batch (half cards, half "
                        "not a card); 0: none")
    p.add_argument("--small-cards", type=parse_share, default=0.0, metavar="SHARE",
                   help="render this share of the classifier's scenes with cards far off, 10-17 %% of the frame "
                        "height (the scenes' own: 17-30 %%); 0: none")
    p.add_argument("--coarse-index", type=parse_share, default=0.0, metavar="SHARE",
                   help="coarsen this share of the classifier's training crops (shrunk 2-3.5 times and enlarged "
                        "again), as small bitmap indices enlarged look; 0: none")
    p.add_argument("--stretched-index", type=parse_share, default=0.0, metavar="SHARE",
                   help="stretch this share of the classifier's training crops across or down, as an outline "
                        "narrower or shorter than its card (a card partly covered) cuts its index; 0: none")
    p.add_argument("--jokers", type=parse_share, default=0.0, metavar="SHARE",
                   help="lay the deck's joker among the cards of this share of the classifier's scenes, its "
                        "corners learnt as not a card (sim/render/jokers.py); 0: none")
    p.add_argument("--real-faces", type=parse_share, default=0.0, metavar="SHARE",
                   help="add whole cards cut from the labelled real photos (models/training/real_faces.py) to "
                        "the whole-card network's training, drawn as this share of every batch; 0: none")
    p.add_argument("--edge-beside", type=parse_share, default=0.0, metavar="SHARE",
                   help="show this share of the whole-card network's faces with another card's edge beside them, "
                        "as an outline taking in the stock under a starter sees them; 0: none")
    p.add_argument("--real-photos", type=Path, default=ROOT / ".cache" / "real",
                   help="the real photos (python -m bench.real.build)")
    p.add_argument("--out", type=Path, default=ROOT / "models",
                   help="where cards.onnx, labels.json, whole_card.onnx and whole_card.json go")
    p.add_argument("--cache", type=Path, default=ROOT / ".cache" / "training")
    add_arguments(p)
    args = p.parse_args(argv)
    if args.data_seed is None:
        args.data_seed = args.seed  # the scenes are rendered with --seed unless told otherwise
    from models.training.devices import device_problem
    from vision.crops import INDEX_HEIGHT, INDEX_WIDTH

    if any(h > INDEX_HEIGHT or w > INDEX_WIDTH for h, w in args.sizes):
        p.error(f"--sizes: no network can read more than the crops, {INDEX_WIDTH}x{INDEX_HEIGHT} (vision.crops)")
    problem = device_problem(args.device)
    if problem:
        p.error(problem)
    return args


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """"32x56,40x70" -> [(56, 32), (70, 40)]: (height, width) per network."""
    try:
        sizes = [tuple(int(n) for n in part.lower().split("x")) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are WIDTHxHEIGHT[,WIDTHxHEIGHT...], not {text!r}") from None
    if not sizes or any(len(s) != 2 or min(s) <= 0 for s in sizes):
        raise argparse.ArgumentTypeError(f"sizes are WIDTHxHEIGHT[,WIDTHxHEIGHT...], not {text!r}")
    return [(h, w) for w, h in sizes]


def parse_share(text: str) -> float:
    """A share (of every batch, of the font decks): 0 (none) up to, not including, 1."""
    try:
        share = float(text)
    except ValueError:
        share = -1.0
    if not 0.0 <= share < 1.0:
        raise argparse.ArgumentTypeError(f"a share is a number from 0 up to 1, such as 0.15, not {text!r}")
    return share


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import numpy as np
    import torch

    from models.training.dataset import BACKGROUND_LABEL, cached_build
    from models.training.decks import scenes_per_deck
    from models.training.train import log
    from sim.render.fontdecks import is_validation_deck

    torch.set_num_threads(args.threads)
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    started = time.time()
    scenes = scenes_per_deck(args.scenes_per_deck, args.font_decks, args.validation_font_decks,
                             args.scenes_per_font_deck, log, args.designs, args.scenes_per_design,
                             args.foreign_courts, args.foreign_decks, args.pixel_decks, args.four_colour,
                             args.four_colour_decks, args.more_font_decks)
    if scenes is None:
        return 2
    decks = list(scenes)
    data = cached_build(args.cache, decks, scenes, args.data_seed, args.workers, log, args.small_cards,
                        args.jokers)
    if args.render_only:
        return 0
    log(f"{len(data.labels)} crops: {int((data.labels != BACKGROUND_LABEL).sum())} cards, "
        f"{int((data.labels == BACKGROUND_LABEL).sum())} not-a-card ({time.time() - started:.0f} s so far)")
    # Validation: every tenth scene of the training decks, and every scene of the validation font decks.
    validation_ids = [i for i, deck in enumerate(decks) if is_validation_deck(deck)]
    def validation(scene_ids, deck_ids):
        return ((scene_ids % 10) == 0) | np.isin(deck_ids, validation_ids)

    if args.networks != "whole-card":
        train_cards(args, data, validation(data.scenes, data.decks), decks)
    if args.networks != "cards":
        train_whole_cards(args, data.whole, validation(data.whole.scenes, data.whole.decks), decks)
    log(f"total {(time.time() - started) / 60:.1f} min")
    return 0


def train_cards(args: argparse.Namespace, data, val, decks: list[str]) -> None:
    from models.training.dataset import BACKGROUND_LABEL, CLASSES
    from models.training.export import export
    from models.training.train import log, train_pair
    from sim.render.decks import HELD_OUT_DECKS

    height, width = data.crops.shape[1:3]
    train_x, train_y = data.crops[~val], data.labels[~val]
    real = real_mask = None
    if args.real_crops:
        import numpy as np

        from models.training.real_crops import build_real_crops
        from vision.classifier import CardClassifier
        from vision.recognizer import default_finder

        real = build_real_crops(args.real_photos, args.seed, finder=default_finder(),
                                classifier=CardClassifier(), log=log)
        real_mask = np.r_[np.zeros(len(train_y), bool), np.ones(len(real), bool)]
        train_x = np.concatenate([train_x, real.crops])
        train_y = np.concatenate([train_y, real.labels])
    later = args.after + (args.whole_card_minutes + FINISHING if args.networks == "both" else 0.0)
    minutes = budget("classifier", args.minutes, later, args.deadline, log)
    fitted = train_pair(train_x, train_y, data.crops[val], data.labels[val],
                        sizes=args.sizes, classes=CLASSES, background=BACKGROUND_LABEL, minutes=minutes,
                        seed=args.seed, head=args.head, device=args.device,
                        real=real_mask, real_share=args.real_crops, coarse=args.coarse_index,
                        stretched=args.stretched_index)
    onnx_path, labels_path = export(fitted.net, height, width, fitted.temperature, fitted.threshold, args.out,
                                    extra={"trained_on": decks, "held_out": list(HELD_OUT_DECKS),
                                           "validation": fitted.report, "seed": args.seed,
                                           "data_seed": args.data_seed,
                                           "networks": [f"{w}x{h}" for h, w in args.sizes],
                                           "real_crops": 0 if real is None else len(real),
                                           "real_crop_share": args.real_crops,
                                           "foreign_courts": args.foreign_courts,
                                           "foreign_decks": args.foreign_decks,
                                           "pixel_decks": args.pixel_decks,
                                           "four_colour": args.four_colour,
                                           "four_colour_decks": args.four_colour_decks,
                                           "more_font_decks": args.more_font_decks,
                                           "small_cards": args.small_cards,
                                           "jokers": args.jokers,
                                           "coarse_index": args.coarse_index,
                                           "stretched_index": args.stretched_index})
    log(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KB) and {labels_path}")


def train_whole_cards(args: argparse.Namespace, whole, val, decks: list[str]) -> None:
    from models.training import whole_card
    from models.training.train import log

    real = None
    if args.real_faces:
        from models.training.real_faces import build_real_faces

        real = build_real_faces(args.real_photos, args.seed, log=log)
    minutes = budget("whole-card network", args.whole_card_minutes, args.after, args.deadline, log)
    net, report = whole_card.train(whole.crops[~val], whole.labels[~val], whole.crops[val], whole.labels[val],
                                   minutes=minutes, seed=args.seed, real=real,
                                   real_share=args.real_faces, edge_share=args.edge_beside)
    log("whole-card validation: " + ", ".join(f"{k} {v}" for k, v in report.items()))
    onnx_path, meta_path = whole_card.export(net, args.out, {"trained_on": decks, "seed": args.seed,
                                                             "data_seed": args.data_seed,
                                                             "minutes": round(minutes, 2),
                                                             "real_faces": 0 if real is None else len(real),
                                                             "real_face_share": args.real_faces,
                                                             "edge_beside": args.edge_beside,
                                                             "validation": report})
    log(f"wrote {onnx_path} ({onnx_path.stat().st_size / 1024:.0f} KB) and {meta_path}")


if __name__ == "__main__":
    sys.exit(main())
