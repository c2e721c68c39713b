"""Schemathesis hooks for the fuzzing test (test/e2e/schemathesis.test.ts, SCHEMATHESIS_HOOKS).

POST /api/verify/signed-pdf takes its body as application/pdf; schemathesis has no serializer for it
and reports every case as an error. Its bytes are sent as they are, like application/octet-stream.
"""

import schemathesis

schemathesis.serializer.alias("application/pdf", "application/octet-stream")
