#!/usr/bin/env python3
"""Reads a kv run's greedy answers digit by digit: which value digits it gets right, and from
which pair each answer digit comes. Sends COUNT held-out kv examples of length L (`posbias tasks
--task kv -L L --count COUNT --seed 1`, eval's seed) to a run behind `posbias serve` and writes
JSON: the share of first digits right; the share of answer digits k (k = 1, 2, 3) that are digit
k of some pair's value in the context (a model that copies from the right slot of the wrong pair
scores 1 here); the second digit right when the first is, the third when the first two are; how
often a wrong second digit is another pair's; and the chance level of the first digit for a
model that copies digit 1 of a pair drawn uniformly (the mean share of pairs whose first digit
is the answer's).
Usage: scripts/kv-answer-digits.py ENDPOINT MODEL L COUNT OUT.json
  e.g. posbias serve --run m=RUN --port 8000 &  scripts/kv-answer-digits.py http://127.0.0.1:8000 m 32 200 digits.json"""
import json
import os
import subprocess
import sys
import urllib.request


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: kv-answer-digits.py ENDPOINT MODEL L COUNT OUT.json")
    endpoint, model, length, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    posbias = os.environ.get("POSBIAS", "build/posbias")
    lines = subprocess.run([posbias, "tasks", "--task", "kv", "-L", str(length), "--count", str(count),
                            "--seed", "1"], capture_output=True, text=True, check=True).stdout.splitlines()
    n_first = n_second = n_third = wrong_second = wrong_second_other = 0
    from_slot = [0, 0, 0]
    chance_first = 0.0
    for line in lines:
        ex = json.loads(line)
        body = json.dumps({"model": model, "prompt": " ".join(ex["tokens"]), "max_tokens": 3,
                           "temperature": 0}).encode()
        request = urllib.request.Request(endpoint + "/v1/completions", data=body,
                                         headers={"Content-Type": "application/json"})
        got = json.load(urllib.request.urlopen(request))["choices"][0]["text"].split()
        answer, tokens, pairs = ex["answer"].split(), ex["tokens"], ex["pairs"]
        start = len(tokens) - 4 - 6 * pairs  # the pairs end at the query
        values = [tokens[start + 6 * i + 3: start + 6 * i + 6] for i in range(pairs)]
        queried = (ex["position"] - start) // 6
        got += [""] * (3 - len(got))
        for k in range(3):
            from_slot[k] += got[k] in {v[k] for v in values}
        chance_first += sum(v[0] == answer[0] for v in values) / pairs
        if got[0] != answer[0]:
            continue
        n_first += 1
        if got[1] == answer[1]:
            n_second += 1
            n_third += got[2] == answer[2]
        else:
            wrong_second += 1
            wrong_second_other += got[1] in {v[1] for i, v in enumerate(values) if i != queried}
    total = len(lines)
    result = {
        "examples": total, "length": length, "seed": 1,
        "first_right": n_first / total,
        "first_right_chance_copying_a_random_pair": chance_first / total,
        "digit_from_its_slot": {"1": from_slot[0] / total, "2": from_slot[1] / total, "3": from_slot[2] / total},
        "second_right_given_first": n_second / n_first if n_first else None,
        "third_right_given_first_two": n_third / n_second if n_second else None,
        "wrong_second_from_another_pair": wrong_second_other / wrong_second if wrong_second else None,
        "exact_match": n_third / total,
        "counts": {"first_right": n_first, "second_right": n_second, "third_right": n_third,
                   "wrong_second": wrong_second},
    }
    with open(out, "w") as f:
        f.write(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
