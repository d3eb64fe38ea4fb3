"""Photographs of real playing cards from public repositories: labels, sources, the script that
fetches the images into .cache/real and the scoring the real-photo benchmark uses (bench/bench_real.py)."""
