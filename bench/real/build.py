"""Rebuild the real-photo set: copy every labelled photo out of the fetched mirrors into .cache/real.

The photos are not committed (most of their repositories carry no licence, and none of them belong in
this repository's history); labels.jsonl and sources.json are. Each photo is read with git from the
mirror's git directory at the commit recorded in sources.json, so the set is the same on every machine
whatever the mirror's newest commit is. Standard library and the git command only.

Each source in sources.json names its part (bench/real/parts.py): `steer`, the sources that steered
choices of the recognizer and the sources a model may train on, or `report`, the sources added for
issue 43 that steered nothing and are only reported (bench/real/README.md lists both). The build copies
both; it says how many photos each part holds.

    python -m bench.real.build [--mirror-root /work/.mirror] [--out .cache/real]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bench.real.parts import part_of

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LABELS = HERE / "labels.jsonl"
SOURCES = HERE / "sources.json"
DEFAULT_MIRRORS = Path("/work/.mirror")
DEFAULT_OUT = ROOT / ".cache" / "real"


def folder_name(repo: str) -> str:
    """'owner/name' -> 'owner+name', the mirror's folder name and the folder under the output."""
    return repo.replace("/", "+")


def load_labels(path: Path = LABELS) -> list[dict]:
    """Every line of labels.jsonl as a dict (blank lines skipped)."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_sources(path: Path = SOURCES) -> dict[str, dict]:
    """sources.json keyed by 'owner/name'."""
    with open(path, encoding="utf-8") as f:
        return {s["repo"]: s for s in json.load(f)}


def mirror_of(mirror_root: Path, repo: str) -> Path:
    """Where a repository's clone lies under the mirror root: <root>/<owner+name>/repo."""
    return mirror_root / folder_name(repo) / "repo"


def git_dir(mirror_root: Path, repo: str) -> Path | None:
    """The mirror's git directory: <root>/<owner+name>/repo/.git, or the bare <root>/<owner+name>/repo."""
    base = mirror_of(mirror_root, repo)
    for candidate in (base / ".git", base):
        if (candidate / "HEAD").is_file() and (candidate / "objects").is_dir():
            return candidate
    return None


def read_blob(gitdir: Path, commit: str, path: str) -> bytes | None:
    """The file `path` at `commit` in that git directory, or None where git has no such blob (not at
    that commit, or a large file the snapshot left out)."""
    done = subprocess.run(["git", "--git-dir", str(gitdir), "cat-file", "blob", f"{commit}:{path}"],
                          capture_output=True, check=False)
    return done.stdout if done.returncode == 0 and done.stdout else None


def build(mirror_root: Path, out: Path, labels: list[dict], sources: dict[str, dict],
          log=print) -> dict[str, int]:
    """Write each labelled photo to out/<owner+name>/<path>; returns counts: written, present, missing."""
    counts = {"written": 0, "present": 0, "missing": 0}
    by_repo: dict[str, list[dict]] = {}
    for label in labels:
        by_repo.setdefault(label["source"], []).append(label)
    for repo, items in sorted(by_repo.items()):
        source = sources.get(repo)
        if source is None:
            log(f"{repo}: not in sources.json; its {len(items)} photos are skipped")
            counts["missing"] += len(items)
            continue
        targets = [(item, out / folder_name(repo) / item["path"]) for item in items]
        todo = [(item, target) for item, target in targets if not target.is_file()]
        counts["present"] += len(targets) - len(todo)
        if not todo:
            continue
        gitdir = git_dir(mirror_root, repo)
        if gitdir is None:
            log(f"{repo}: no mirror under {mirror_root}; clone it there (git clone https://github.com/{repo} "
                f"{mirror_of(mirror_root, repo)}), then run again ({len(todo)} photos skipped)")
            counts["missing"] += len(todo)
            continue
        lost = 0
        for item, target in todo:  # a label may name the commit holding a photo deleted before the source's
            data = read_blob(gitdir, item.get("commit", source["commit"]), item["path"])
            if data is None:
                lost += 1
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            counts["written"] += 1
        if lost:
            log(f"{repo}: {lost} photos not found at commit {source['commit'][:12]} in {gitdir}; the mirror "
                f"may be of another commit: fetch github:{repo} again, then run again")
            counts["missing"] += lost
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.real.build", description=__doc__.split("\n")[0])
    parser.add_argument("--mirror-root", type=Path, default=DEFAULT_MIRRORS,
                        help=f"folder of fetched mirrors, owner+name/repo (default {DEFAULT_MIRRORS})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the photos go (default .cache/real)")
    args = parser.parse_args(argv)
    labels, sources = load_labels(), load_sources()
    counts = build(args.mirror_root, args.out, labels, sources)
    print(f"{counts['written']} photos written, {counts['present']} already there, "
          f"{counts['missing']} missing, under {args.out}")
    parts = Counter(part_of(label["source"], sources) for label in labels)
    print("labelled photos per part: " + ", ".join(f"{part} {n}" for part, n in sorted(parts.items())))
    return 1 if counts["missing"] else 0


if __name__ == "__main__":
    sys.exit(main())
