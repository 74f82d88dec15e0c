#!/usr/bin/env python3
"""GraphQL routes over a real socket, driven by a real GraphQL client (issue 63).

    python3 Tests/GraphQL/graphql_client_test.py --stubd .build/debug/stubd

Serves Examples/graphql/Stubs with `stubd serve --port 0` and sends what clients send:

- gql (PyPI; its requests transport) runs GetWeather for Paris and for Oslo, Me (a file per
  operation) and Forecast: each answered by its operation and variables. gql prints the document
  itself (graphql-core's printer), so the query on the wire is not the stub's text: matched by shape;
- an operation no route answers: 404, the miss naming the operations' routes and why;
- GET ?query=…&variables=… and POST application/graphql, with plain requests;
- Apollo's automatic persisted queries, as apollo-link-persisted-queries sends them: the hash of a
  route's query alone is answered; another hash is PersistedQueryNotFound (200), then hash and
  query register it, then the hash alone is answered;
- hits and coverage name the operations;
- `stubd record` in front of the example, gql through it: a route per operation and variables,
  whose replay answers a query printed otherwise;
- then, served with `--graphql-schema schema.graphqls --validate requests=strict`: a field the schema
  does not have (gql's error, graphql-js's words, 400 GRAPHQL_VALIDATION_FAILED at its line and
  column), a required variable missing (400 BAD_USER_INPUT), and a valid request answered.

Prints what it checks; exits 1 on any failure. Took 0.1 s (the server's start included) on a machine at load 2.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

import requests
from gql import Client, GraphQLRequest, gql
from gql.transport.exceptions import TransportQueryError, TransportServerError
from gql.transport.requests import RequestsHTTPTransport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUBS = os.path.join(ROOT, "Examples", "graphql", "Stubs")
SCHEMA = os.path.join(ROOT, "Examples", "graphql", "schema.graphqls")

GET_WEATHER = """
query GetWeather($city: String!) {
  weather(city: $city) { sky tempC city }
}
"""
failures = []


def check(what, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + what + ("" if ok else f": {detail}"))
    if not ok:
        failures.append(what)


def serve(stubd, *extra):
    proc = subprocess.Popen([stubd, "serve", "--stubs", STUBS, "--port", "0", "--no-watch", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = proc.stdout.readline()
    if "listening on" not in first:
        proc.kill()
        sys.exit(f"stubd serve did not start: {first}{proc.stdout.read()}")
    # Keep reading its log: a full pipe would stall the server.
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc, first.split("listening on ")[1].split()[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubd", required=True)
    args = parser.parse_args()
    started = time.monotonic()
    proc, base = serve(args.stubd)
    try:
        run(base)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    proc, base = serve(args.stubd, "--graphql-schema", SCHEMA, "--validate", "requests=strict")
    try:
        run_strict(base)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    proc, base = serve(args.stubd)
    try:
        run_recording(args.stubd, base)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"{'FAILED' if failures else 'passed'} in {time.monotonic() - started:.1f} s")
    sys.exit(1 if failures else 0)


def run(base):
    url = base + "/graphql"
    client = Client(transport=RequestsHTTPTransport(url=url, timeout=10))
    with client as session:
        paris = session.execute(GraphQLRequest(gql(GET_WEATHER), variable_values={"city": "Paris"}, operation_name="GetWeather"))
        check("gql: GetWeather for Paris is Paris's answer (the query as gql prints it, matched by shape)",
              paris == {"weather": {"city": "Paris", "tempC": 21, "sky": "CLEAR"}}, paris)
        oslo = session.execute(GraphQLRequest(gql(GET_WEATHER), variable_values={"city": "Oslo"}))
        check("gql: GetWeather for Oslo is the operation's catch-all", oslo["weather"]["city"] == "Elsewhere", oslo)
        me = session.execute(gql("query Me { me { id name } }"))
        check("gql: Me is answered by Stubs/graphql/Me.graphql.json", me == {"me": {"id": "1", "name": "Ada Lovelace"}}, me)

    # gql raises on a response with `errors`; the raw response shows the partial data too.
    forecast = requests.post(url, json={"operationName": "Forecast", "query": "query Forecast($days: Int, $units: String) { forecast(days: $days, units: $units) { day } }",
                                        "variables": {"days": 14, "units": "metric"}}, timeout=10)
    body = forecast.json()
    check("Forecast (variables a superset of the route's): 200, data and errors with path and code",
          forecast.status_code == 200 and body["data"] == {"forecast": None} and body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", body)

    client = Client(transport=RequestsHTTPTransport(url=url, timeout=10))
    try:
        with client as session:
            session.execute(gql("query Unknown { nothing }"))
        check("gql: an operation no route answers fails", False, "answered")
    except TransportServerError as error:
        check("gql: an operation no route answers is a 404", error.code == 404, error)
    miss = requests.post(url, json={"query": "query Unknown { nothing }"}, timeout=10).json()
    check("the miss names the operations' routes and why each did not answer",
          "graphql GetWeather on /graphql" in miss["detail"] and "the route answers GetWeather" in miss["detail"], miss["detail"])

    got = requests.get(url, params={"query": GET_WEATHER, "variables": json.dumps({"city": "Paris"})}, timeout=10)
    check("GET ?query=…&variables=… is read as POST is", got.json()["data"]["weather"]["city"] == "Paris", got.text)
    raw = requests.post(url, data="query Me { me { name id } }", headers={"Content-Type": "application/graphql"}, timeout=10)
    check("POST application/graphql: the body is the query", raw.json()["data"]["me"]["name"] == "Ada Lovelace", raw.text)

    # Automatic persisted queries, as apollo-link-persisted-queries sends them.
    def apq(query, operation, with_query, session_id):
        digest = hashlib.sha256(query.encode()).hexdigest()
        body = {"operationName": operation, "variables": {"city": "Paris"},
                "extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest}}}
        if with_query:
            body["query"] = query
        return requests.post(url, json=body, headers={"X-Stubd-Session": session_id}, timeout=10)

    written = """query GetWeather($city: String!) {
  weather(city: $city) {
    city
    tempC
    sky
  }
}
"""
    known = apq(written, "GetWeather", False, "apq")
    check("APQ: the hash alone of a route's query as written is answered", known.json().get("data", {}).get("weather", {}).get("city") == "Paris", known.text)
    first = apq(GET_WEATHER, "GetWeather", False, "apq")
    check("APQ: an unknown hash is PersistedQueryNotFound, 200, as Apollo Server answers",
          first.status_code == 200 and first.json() == {"errors": [{"message": "PersistedQueryNotFound", "extensions": {"code": "PERSISTED_QUERY_NOT_FOUND"}}]},
          f"{first.status_code} {first.text}")
    second = apq(GET_WEATHER, "GetWeather", True, "apq")
    check("APQ: hash and query answer, and register the query", second.json().get("data", {}).get("weather", {}).get("city") == "Paris", second.text)
    third = apq(GET_WEATHER, "GetWeather", False, "apq")
    check("APQ: then the hash alone is answered", third.json().get("data", {}).get("weather", {}).get("city") == "Paris", third.text)

    hits = requests.get(base + "/__stubd/hits", timeout=10).json()
    names = {r["route"]: r["hits"] for r in hits["routes"]}
    check("hits name the operations", names.get("weather-paris") == 2 and names.get("graphql Me on /graphql") == 2, names)
    coverage = requests.get(base + "/__stubd/coverage", timeout=10).json()
    covered = [r["route"] for r in coverage["routes"]]
    check("coverage names the operations", "graphql Me on /graphql" in covered and "forecast-unavailable" in covered, covered)


def run_strict(base):
    """`--graphql-schema … --validate requests=strict`: what a real server answers a request that breaks the schema."""
    url = base + "/graphql"
    client = Client(transport=RequestsHTTPTransport(url=url, timeout=10))
    with client as session:
        me = session.execute(gql("query Me { me { id name } }"))
        check("strict: a request that keeps to the schema gets its stub", me == {"me": {"id": "1", "name": "Ada Lovelace"}}, me)
        try:
            session.execute(gql("query Me { me { id nickname } }"))
            check("strict: gql is refused a field the schema does not have", False, "answered")
        except (TransportQueryError, TransportServerError) as error:
            check("strict: gql is refused a field the schema does not have, in graphql-js's words",
                  'Cannot query field "nickname" on type "User".' in str(error), error)
    raw = requests.post(url, json={"operationName": "GetWeather", "variables": {},
                                   "query": "query GetWeather($city: String!) { weather(city: $city) { city } }"}, timeout=10)
    body = raw.json()
    check("strict: a required variable missing is 400, BAD_USER_INPUT, as Apollo Server 5 answers",
          raw.status_code == 400 and body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
          and body["errors"][0]["message"] == 'Variable "$city" of required type "String!" was not provided.', f"{raw.status_code} {body}")
    unknown = requests.post(url, json={"query": "query Me {\n  me { id nickname }\n}"}, timeout=10)
    error = unknown.json()["errors"][0]
    check("strict: an unknown field is 400 GRAPHQL_VALIDATION_FAILED at its line and column",
          unknown.status_code == 400 and error["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"
          and error["locations"] == [{"line": 2, "column": 11}], f"{unknown.status_code} {error}")


def run_recording(stubd, upstream):
    """`stubd record` in front of a GraphQL API (the example served), gql through it; the folder it
    writes, served alone, answers the operations however the query is printed."""
    with tempfile.TemporaryDirectory() as folder:
        recorder = subprocess.Popen([stubd, "record", "--target", upstream, "--stubs", folder, "--port", "0", "--allow-ci"],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        first = recorder.stdout.readline()
        if "recording on" not in first:
            recorder.kill()
            check("stubd record starts", False, first + recorder.stdout.read())
            return
        threading.Thread(target=lambda: [None for _ in recorder.stdout], daemon=True).start()
        url = re.search(r"recording on (http://[0-9.]+:[0-9]+)", first).group(1) + "/graphql"
        try:
            client = Client(transport=RequestsHTTPTransport(url=url, timeout=10))
            with client as session:
                for city in ("Paris", "Oslo"):
                    session.execute(GraphQLRequest(gql(GET_WEATHER), variable_values={"city": city}, operation_name="GetWeather"))
                session.execute(gql("query Me { me { id name } }"))
        finally:
            recorder.terminate()
            recorder.wait(timeout=10)
        manifest = open(os.path.join(folder, "stubd.recorded.yml")).read()
        check("record: one route per operation and variables, named after the operation",
              'graphql: { operationName: "GetWeather", query: ' in manifest and 'variables: {"city":"Paris"} }' in manifest
              and 'name: "GetWeather-2"' in manifest and 'graphql: { operationName: "Me", query: ' in manifest and "body:" not in manifest, manifest)
        proc, base = subprocess.Popen([stubd, "serve", "--stubs", folder, "--port", "0", "--no-watch"],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), None
        line = proc.stdout.readline()
        try:
            if "listening on" not in line:
                check("the recorded folder serves", False, line + proc.stdout.read())
                return
            threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
            base = line.split("listening on ")[1].split()[0]
            respaced = "query GetWeather($city: String!) {\n  weather(city: $city) {\n    sky\n    city\n    tempC\n  }\n}"
            oslo = requests.post(base + "/graphql", json={"variables": {"city": "Oslo"}, "query": respaced, "operationName": "GetWeather"}, timeout=10)
            check("record: the replay answers the operation asked with the query printed otherwise",
                  oslo.status_code == 200 and oslo.json()["data"]["weather"]["city"] == "Elsewhere", f"{oslo.status_code} {oslo.text}")
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
