"""Schemathesis hooks for the fuzzing test (test/e2e/schemathesis.test.ts, SCHEMATHESIS_HOOKS).

POST /api/verify/signed-pdf takes its body as application/pdf; schemathesis has no serializer for it
and reports every case as an error. Its bytes are sent as they are, like application/octet-stream.

Webhook endpoints (create, update) make the service call the URL they are given: a generated URL
would send deliveries, signed and carrying test signer data, to whatever host the fuzzer made up. So
every text `url` of those operations is replaced, just before the request leaves, by the loopback
receiver the test runs (SIGNET_FUZZ_WEBHOOK_URL); a `url` of another type (null, a number) is left as
generated, since it is refused before anything is stored. The test then checks that every endpoint
the run left behind points at that receiver.
"""

import os

import schemathesis

schemathesis.serializer.alias("application/pdf", "application/octet-stream")

WEBHOOK_ENDPOINTS = "/api/webhook-endpoints"


def loopback_url() -> str:
    url = os.environ.get("SIGNET_FUZZ_WEBHOOK_URL", "http://127.0.0.1:9/signet-fuzz")
    if not url.startswith(("http://127.", "http://[::1]")):
        raise RuntimeError(f"SIGNET_FUZZ_WEBHOOK_URL must be a loopback URL, not {url!r}")
    return url


def pins_webhook_url(path: str, method: str) -> bool:
    """The operations that store a URL the service will call: create and update of an endpoint."""
    m = method.upper()
    return (path == WEBHOOK_ENDPOINTS and m == "POST") or (path == WEBHOOK_ENDPOINTS + "/{id}" and m == "PATCH")


@schemathesis.hook
def before_call(ctx, case, kwargs):
    if not pins_webhook_url(case.operation.path, case.method):
        return
    if isinstance(case.body, dict) and isinstance(case.body.get("url"), str):
        case.body = {**case.body, "url": loopback_url()}
