"""Second opinion for JSONSchemaDifferentialTests: Python's jsonschema (2020-12, formats asserted).

Reads {"schemas": [...], "cases": [[schema_index, instance], ...]} from the file named by argv[1];
prints {"verdicts": [true|false, ...], "formats": [checked formats]} on stdout.
"""
import json
import sys

import jsonschema

with open(sys.argv[1], encoding="utf-8") as f:
    job = json.load(f)
checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
validators = [jsonschema.Draft202012Validator(s, format_checker=checker) for s in job["schemas"]]
verdicts = [validators[i].is_valid(instance) for i, instance in job["cases"]]
json.dump({"verdicts": verdicts, "formats": sorted(checker.checkers)}, sys.stdout)
