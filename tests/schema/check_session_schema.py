#!/usr/bin/python3
"""resources/schema/session.schema.json describes the session format exactly (issue 18).

Run by ctest as ridgeline_schema_test, with Debian's python3 and its python3-jsonschema (Draft 7):
  1. the schema is a valid Draft 7 schema;
  2. every session fixture in the tree validates (tests/data, resources/sessions);
  3. every session Ridgeline saves validates: `ridgeline measure --quick --out`, `ridgeline import --out`
     (Nsight Compute, likwid, plain CSV, ERT; GPU kernels with their device) and `ridgeline import --into`, written
     here by the real binary;
  4. every file in tests/data/bad is refused by the schema, except the ones whose defect JSON Schema cannot
     see (listed below with the reason) and the ones that are not JSON at all;
  5. the schema and Ridgeline's loader agree on hundreds of mutants of real sessions: each required field
     removed, each optional one removed, an unknown field added to each object, each value replaced by a wrong
     type, a negative, an absurdly large number or a fraction. The loader is asked through
     `ridgeline export MUTANT --csv DIR` (exit 0: loaded, 1: refused).

Usage: check_session_schema.py SCHEMA RIDGELINE_BINARY SOURCE_DIR
"""

import concurrent.futures
import copy
import datetime
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

# Defects of tests/data/bad that JSON Schema cannot express; Ridgeline's loader refuses them.
BEYOND_SCHEMA = {
    "duplicate_key.json": "a key twice in one object: JSON parsers keep one of them, a schema never sees both",
    "duplicate_key_escaped.json": "a key twice (once escaped): as above",
    "spread_min_above_median.json": "min <= median <= max compares two values; JSON Schema cannot",
    "spread_median_above_max.json": "as above",
    "duplicate_key_top_level.json": "schema_version twice (1, then 2): Python keeps the 2, a valid version",
    "calibration_error_inverted.json": "median_abs <= worst_abs compares two values",
    "calibration_term_twice.json": "a term named twice: uniqueness of one field across array items",
    "calibration_point_twice.json": "two points with the same id and quantity: uniqueness of a pair of fields",
    "calibration_context_beyond_model.json": "prompt + output above the model's 10000000 tokens adds two fields",
}


class NotJson(Exception):
    pass


def parse(raw):
    """Strict JSON as Ridgeline reads it: UTF-8 only, no NaN or Infinity."""
    def refuse_constant(name):
        raise NotJson(name)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=refuse_constant)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, NotJson) as error:
        raise NotJson(str(error)[:80]) from error


def spread_out_of_order(node):
    """True when some object's min <= median <= max fails: the loader refuses it, JSON Schema cannot say so."""
    if isinstance(node, dict):
        values = [node.get(key) for key in ("min", "median", "max")]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            if not values[0] <= values[1] <= values[2]:
                return True
        return any(spread_out_of_order(value) for value in node.values())
    if isinstance(node, list):
        return any(spread_out_of_order(value) for value in node)
    return False


def impossible_day(document):
    """True when "created" has the shape of RFC 3339 but names no real day or time (2026-02-30): the loader
    refuses it, a pattern cannot count the days of each month."""
    created = document.get("created") if isinstance(document, dict) else None
    if not isinstance(created, str):
        return False
    try:
        datetime.datetime.fromisoformat(created.replace("Z", "+00:00"))
        return False
    except ValueError:
        return True


def calibration_inconsistent(document):
    """True when a calibration breaks a rule between fields: error median_abs <= worst_abs, each term named once,
    every free term among the terms (names compared exactly, as the loader does), no point twice (id and quantity),
    prompt + output within the model's context. The loader refuses these; JSON
    Schema cannot compare fields."""
    if not isinstance(document, dict):
        return False
    for calibration in document.get("calibrations") or []:
        if not isinstance(calibration, dict):
            continue
        for key in ("error_before", "error_after"):
            error = calibration.get(key)
            if isinstance(error, dict):
                low, high = error.get("median_abs"), error.get("worst_abs")
                if isinstance(low, (int, float)) and isinstance(high, (int, float)) and low > high:
                    return True
        names = [t.get("name") for t in calibration.get("terms") or [] if isinstance(t, dict)]
        if len(names) != len(set(names)):
            return True
        if any(isinstance(f, str) and f not in names for f in calibration.get("free_terms") or []):
            return True
        points = [p for p in calibration.get("points") or [] if isinstance(p, dict)]
        keys = [(p.get("id"), str(p.get("quantity")).lower()) for p in points]
        if len(keys) != len(set(keys)):
            return True
        for point in points:
            prompt, output = point.get("prompt"), point.get("output")
            if isinstance(prompt, int) and isinstance(output, int) and prompt + output > 10000000:
                return True
    return False


def beyond_schema(document):
    return spread_out_of_order(document) or impossible_day(document) or calibration_inconsistent(document)


def errors_of(validator, document):
    return sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))


class Checker:
    def __init__(self, schema_path, ridgeline, source):
        with open(schema_path, encoding="utf-8") as f:
            self.schema = json.load(f)
        jsonschema.Draft7Validator.check_schema(self.schema)
        self.validator = jsonschema.Draft7Validator(self.schema)
        self.ridgeline = ridgeline
        self.source = source
        self.failures = []
        self.work = tempfile.mkdtemp(prefix="ridgeline-schema-")
        self.env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}

    def fail(self, message):
        self.failures.append(message)
        print("FAIL: " + message)

    def expect_valid(self, path, what):
        with open(path, "rb") as f:
            document = parse(f.read())
        errors = errors_of(self.validator, document)
        if errors:
            self.fail("%s (%s) does not validate: %s at /%s" % (
                path, what, errors[0].message[:200], "/".join(map(str, errors[0].absolute_path))))
        return document

    def run(self, *arguments):
        return subprocess.run([self.ridgeline, *arguments], capture_output=True, text=True, env=self.env,
                              timeout=600, check=False)

    # 2. Fixtures.
    def fixtures(self):
        count = 0
        for top in ("tests/data", "resources"):
            for folder, _, files in os.walk(os.path.join(self.source, top)):
                if os.path.basename(folder) == "bad":
                    continue
                for name in sorted(files):
                    path = os.path.join(folder, name)
                    if not name.endswith(".json"):
                        continue
                    with open(path, "rb") as f:
                        raw = f.read()
                    if b'"ridgeline-session"' not in raw or name.endswith(".schema.json"):
                        continue
                    self.expect_valid(path, "fixture")
                    count += 1
        if count < 3:
            self.fail("only %d session fixtures found" % count)
        print("fixtures: %d sessions validate" % count)

    # 3. Sessions Ridgeline writes.
    def saved(self):
        data = os.path.join(self.source, "tests", "data")
        imports = os.path.join(data, "import")
        written = []
        measured = os.path.join(self.work, "measured.json")
        result = self.run("measure", "--quick", "--out", measured)
        if result.returncode != 0:
            self.fail("ridgeline measure --quick failed: " + result.stderr)
        else:
            written.append((measured, "measure --quick"))
        plans = [
            ("imported.json", ["import", os.path.join(imports, "ncu_details.csv"), os.path.join(imports, "plain.csv")]),
            # likwid kernels go to a session of the CPU they ran on (one without roofs when it is not a known one).
            ("likwid.json", ["import", os.path.join(imports, "likwid_mem_dp.csv")]),
            ("ert.json", ["import", os.path.join(imports, "ert_roofline.json")]),
            ("into.json", ["import", os.path.join(imports, "ncu_raw.csv"), "--into",
                           os.path.join(data, "sessions", "example.json")]),
            # GPU kernels with their device (issue 12): one file names its GPU, the other takes --device.
            ("gpu.json", ["import", os.path.join(imports, "ncu_raw_roofline_set.csv"),
                          os.path.join(imports, "ncu_details.csv"), "--device", "a100-40gb-sxm"]),
        ]
        for name, arguments in plans:
            out = os.path.join(self.work, name)
            result = self.run(*arguments, "--out", out)
            if result.returncode != 0:
                self.fail("ridgeline %s failed: %s" % (" ".join(arguments), result.stderr))
            else:
                written.append((out, " ".join(arguments[:1])))
        for path, what in written:
            self.expect_valid(path, "written by ridgeline " + what)
        print("saved: %d sessions written by ridgeline validate" % len(written))
        return [path for path, _ in written]

    # 4. The bad fixtures.
    def bad(self):
        folder = os.path.join(self.source, "tests", "data", "bad")
        refused = not_json = beyond = 0
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name), "rb") as f:
                raw = f.read()
            try:
                document = parse(raw)
            except NotJson:
                not_json += 1  # the loader's own business: no schema judges bytes that are not JSON
                continue
            errors = errors_of(self.validator, document)
            if name in BEYOND_SCHEMA:
                beyond += 1
                if errors:
                    self.fail("bad/%s is listed as beyond the schema, yet the schema refuses it: %s" % (
                        name, errors[0].message[:120]))
            elif errors:
                refused += 1
            else:
                self.fail("bad/%s is a valid session by the schema, but Ridgeline refuses it" % name)
        for name in BEYOND_SCHEMA:
            if not os.path.exists(os.path.join(folder, name)):
                self.fail("BEYOND_SCHEMA names bad/%s, which does not exist" % name)
        print("bad fixtures: %d refused by the schema, %d not JSON (the loader's alone), %d beyond JSON Schema" %
              (refused, not_json, beyond))

    # 5. Mutants: the schema and the loader must agree.
    def loader_accepts(self, document, index):
        path = os.path.join(self.work, "mutant-%d.json" % index)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(document, f)
        result = self.run("export", path, "--csv", os.path.join(self.work, "csv-%d" % index))
        if result.returncode not in (0, 1):
            self.fail("ridgeline export exited %d on a mutant: %s" % (result.returncode, result.stderr))
        return result.returncode == 0, result.stderr.strip()

    def mutants(self, document):
        """(description, mutated document) for every kind of edit at every place of the document."""
        def places(node, path):
            yield path, node
            if isinstance(node, dict):
                for key, value in node.items():
                    yield from places(value, path + [key])
            elif isinstance(node, list) and node:
                yield from places(node[0], path + [0])  # the first entry stands for all

        def edited(path, edit):
            copy_ = copy.deepcopy(document)
            parent = copy_
            for step in path[:-1]:
                parent = parent[step]
            edit(parent, path[-1])
            return copy_

        def set_to(value):
            def edit(parent, key):
                parent[key] = value
            return edit

        def delete(parent, key):
            del parent[key]

        for path, node in places(document, []):
            where = "/" + "/".join(map(str, path))
            if isinstance(node, dict):
                def add_unknown(parent, key, node=node):
                    target = parent[key] if path else parent
                    target["zz_unknown"] = 1
                if path:
                    yield where + ": unknown field added", edited(path, add_unknown)
                else:
                    top = copy.deepcopy(document)
                    top["zz_unknown"] = 1
                    yield "/: unknown field added", top
            if not path:
                continue
            if isinstance(path[-1], str):
                yield where + ": removed", edited(path, delete)
            if isinstance(node, bool):
                yield where + ": a string", edited(path, set_to("true"))
            elif isinstance(node, (int, float)):
                yield where + ": a string", edited(path, set_to(str(node)))
                yield where + ": negative", edited(path, set_to(-1))
                yield where + ": 1e300", edited(path, set_to(1e300))
                yield where + ": 2.5", edited(path, set_to(2.5))
                yield where + ": zero", edited(path, set_to(0))
                yield where + ": null", edited(path, set_to(None))
            elif isinstance(node, str):
                yield where + ": a number", edited(path, set_to(7))
                yield where + ": 5000 characters", edited(path, set_to("x" * 5000))
                yield where + ": empty", edited(path, set_to(""))
            elif isinstance(node, list):
                yield where + ": an object", edited(path, set_to({}))
                yield where + ": empty", edited(path, set_to([]))
            elif isinstance(node, dict):
                yield where + ": an array", edited(path, set_to([]))
        # The same file declared schema 1: the fields schema 2 added must then be refused.
        if document.get("schema_version") == 2:
            older = copy.deepcopy(document)
            older["schema_version"] = 1
            yield "/schema_version: 1", older
        # Names of terms, quantities and number formats: any case, the aliases, and near misses.
        if document.get("calibrations"):
            def named(field, value):
                mutant = copy.deepcopy(document)
                calibration = mutant["calibrations"][0]
                if field == "term":
                    others = [t for t in calibration["terms"][1:] if t["name"].lower() != value.lower()]
                    calibration["terms"] = [dict(calibration["terms"][0], name=value)] + others
                    calibration["free_terms"] = [f for f in calibration["free_terms"]
                                                 if any(t["name"] == f for t in calibration["terms"])]
                else:
                    calibration["points"][0][field] = value
                return mutant
            for value in ("layer_seconds", "Weight_Bandwidth.BF16", "kv_bandwidth.mxfp4", "compute.tf32",
                          "weight_bandwidth.tf32", "compute.int4", "compute.mxfp4", "compute.nvfp4", "compute",
                          "layer_seconds.bf16", "weight_bandwidth.bf16 "):
                yield "term name " + value, named("term", value)
            for value in ("TTFT_S", "serving_tokens_per_s", "tokens_per_second", "ttft"):
                yield "quantity " + value, named("quantity", value)
            for value in ("NVFP4", "nvfp4", "Bf16", "tf32", "fp64", "int2", "fp8 "):
                yield "weights " + value, named("weights", value)
            # The model's limits and what each quantity needs, at their edges (loader: calibrationPointFromJson).
            def point(**fields):
                mutant = copy.deepcopy(document)
                mutant["calibrations"][0]["points"][0].update(fields)
                return mutant
            for field, values in (("tensor_parallel", (1024, 1025)), ("batch", (65536, 65537)),
                                  ("prompt", (9999990, 10000001)), ("output", (10000000, 10000001)),
                                  ("id", (" ", "\t", "a")), ("model", (" x ", "")), ("gpu", ("\n",))):
                for value in values:
                    yield "point %s %r" % (field, value), point(**{field: value})
            for quantity in ("token_latency_s", "TTFT_S", "e2e_latency_s", "throughput_tokens_per_s", "tpot_s",
                             "decode_tokens_per_s", "serving_tpot_s", "Serving_Tokens_Per_S", "tokens_per_s"):
                for prompt, output in ((0, 0), (1, 0), (1, 1), (1, 2), (0, 2)):
                    yield "point %s prompt %d output %d" % (quantity, prompt, output), point(
                        quantity=quantity, prompt=prompt, output=output)
            twice = copy.deepcopy(document)
            free = twice["calibrations"][0]["free_terms"]
            if free:
                free.append(free[0])
                yield "free term twice", twice
        # The date and time: what Qt's ISO 8601 reader takes and what it does not.
        if "created" in document:
            for created in ("2026-12-02T16:44:16Z", "2026-12-02T16:44:16.123Z", "2026-12-02T16:44:16+02:00",
                            "2026-12-02T16:44:16", "2026-12-02T16:44Z", "2026-12-02", "2026-12-02 16:44:16Z",
                            "2026-13-02T16:44:16Z", "2026-02-30T16:44:16Z", "2026-12-02T25:44:16Z",
                            "2026-12-02T16:44:16.1234Z", "2026-12-02T16:44:16,5Z", "20261202T164416Z",
                            "2026-12-02T16:44:16+0200", "2026-12-02T16:44:16 Z", " 2026-12-02T16:44:16Z",
                            "2026-12-02T24:00:00Z", "2026-12-02T23:59:60Z", "2024-02-29T00:00:00Z",
                            "2026-02-29T00:00:00Z", "2026-12-02T16:44:16-14:00", "2026-12-02T16:44:16+24:00",
                            "2026-12-02t16:44:16z", "0000-01-01T00:00:00Z", "2026-12-02T16:44:16.123456789Z",
                            "2026-12-02T16:44:16.1234567890Z"):
                mutant = copy.deepcopy(document)
                mutant["created"] = created
                yield "/created: " + created, mutant

    def agreement(self, sources):
        # Each kind of edit at each place once: /kernels/0/gflops of two sessions is the same question.
        cases = []
        asked = set()
        for source in sources:
            with open(source, "rb") as f:
                document = parse(f.read())
            for description, mutant in self.mutants(document):
                if description not in asked:
                    asked.add(description)
                    cases.append((os.path.basename(source), description, mutant))
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            verdicts = list(pool.map(lambda item: self.loader_accepts(item[1][2], item[0]), enumerate(cases)))
        disagreements = beyond = 0
        for (source, description, mutant), (loader_ok, message) in zip(cases, verdicts):
            schema_ok = not errors_of(self.validator, mutant)
            if schema_ok and not loader_ok and beyond_schema(mutant):
                beyond += 1  # beyond JSON Schema, as the schema's description says
                continue
            if schema_ok != loader_ok:
                disagreements += 1
                self.fail("%s %s: the schema %s it, the loader %s it%s" % (
                    source, description, "accepts" if schema_ok else "refuses",
                    "accepts" if loader_ok else "refuses", "" if loader_ok else " (" + message + ")"))
        print("mutants: %d checked (%d break a rule between fields, the loader's alone: min <= median <= max, a day "
              "that exists, a calibration's own consistency), %d where the schema and the loader disagree" %
              (len(cases), beyond, disagreements))


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    checker = Checker(*sys.argv[1:])
    print("jsonschema from " + os.path.dirname(jsonschema.__file__))
    checker.fixtures()
    saved = checker.saved()
    checker.bad()
    data = os.path.join(checker.source, "tests", "data", "sessions")
    checker.agreement([os.path.join(data, "minimal.json"), os.path.join(data, "example.json"),
                       os.path.join(data, "calibrated.json")] +
                      [p for p in saved if p.endswith(("measured.json", "imported.json", "ert.json", "gpu.json"))])
    if checker.failures:
        print("%d failures" % len(checker.failures))
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
