/// Python for the scripts that move a served virtual clock: `advance(seconds)` posts to
/// `/__stubd/clock/advance` on the script's global `port`. A script starts with it:
/// `clockAdvancePython + #"""…"""#`.
public let clockAdvancePython = #"""
    import json, urllib.request
    def advance(seconds):
        req = urllib.request.Request(f"http://127.0.0.1:{port}/__stubd/clock/advance",
                                     data=json.dumps({"seconds": seconds}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        urllib.request.urlopen(req, timeout=5).read()

    """#
