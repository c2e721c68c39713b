// Generated from the gateway OpenAPI document by `pnpm --filter @signet/sdk gen` (openapi-typescript). Do not edit.

export type paths = {
  '/api/verify/{label}/{hash}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Verify a certificate by its reference and the document SHA-256 (its first 16 hex characters, or all 64)
     * @description The hash is that of the original document (the signed PDF’s first revision, byte for byte) or of the signed PDF itself, as downloaded. `document_sha256_prefix` in the answer is always the original’s. Unknown references, wrong prefixes and wrong full hashes get the same 404. Answers are cached briefly by the gateway.
     */
    get: operations['verifyCertificate'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/verify/signed-pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify a signed PDF: its PAdES seal, timestamp and embedded certificate evidence
     * @description The body is the signed PDF as downloaded (application/pdf). The seal must cover the whole file (a later update may only add validation data), chain to the operator’s trusted roots, carry an RFC 3161 timestamp from a trusted authority, and the embedded cert.json must be included in the log and name the certificate the seal is for. Not a PDF, unsigned, or changed after sealing: 400. A server without trusted roots configured answers 404. Rate limit: 20 a minute per client address.
     */
    post: operations['verifySignedPdf'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/register': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Create a signup intent and mail a 6-digit verification code (valid 10 minutes) */
    post: operations['register'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/send-code': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Mail a fresh verification code for a pending sign-up */
    post: operations['sendSignupCode'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/verify-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify the emailed code; five wrong codes burn it
     * @description Returns a one-time onboarding token (valid 1 hour) for POST /api/auth/onboarding.
     */
    post: operations['verifyEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/onboarding': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Complete onboarding: create the account with its organisation name and sign in
     * @description org_name becomes issuer_name on certificates.
     */
    post: operations['completeOnboarding'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/check-email': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Whether an email already has an account */
    post: operations['checkEmail'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with email and password
     * @description Returns a session token, or — when the account has a second factor (TOTP or a passkey) — `{mfa_required: true, challenge, methods}`; complete it at /api/auth/2fa/login (TOTP or recovery code) or /api/auth/passkey/login. Unknown email and wrong password get the same 401. Sign-ins and failures go to the account audit log.
     */
    post: operations['login'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/2fa/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Complete a two-factor login with the challenge and a TOTP code or a recovery code
     * @description Each code is accepted once; five wrong codes end the challenge. A recovery code is spent by its use.
     */
    post: operations['completeMfaLogin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/me': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The current user profile (session JWT or API key)
     * @description Plan fields come from billing and are omitted when it does not answer.
     */
    post: operations['getProfile'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/change-password': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Change the password; every older session stops working and a new session is returned */
    post: operations['changePassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/2fa/setup': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start TOTP setup: a new secret, its otpauth:// URI and a QR code (PNG data URL)
     * @description Two-factor authentication is on only after POST /api/auth/2fa/enable with a valid code.
     */
    post: operations['setupTotp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/2fa/enable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Turn TOTP on with a code from the authenticator */
    post: operations['enableTotp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/2fa/disable': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Turn TOTP off; needs the password and a current code */
    post: operations['disableTotp'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/send-reset-code': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Mail a password-reset code (valid 10 minutes) if the email has an account
     * @description The answer is the same whether or not the email has an account.
     */
    post: operations['sendResetCode'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/reset-password-code': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Set a new password with the mailed reset code; every older session stops working
     * @description An unknown email and a wrong code get the same 400; five wrong codes burn the code.
     */
    post: operations['resetPassword'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/passkeys/options': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Start registering a passkey: options for navigator.credentials.create (valid 5 minutes, once) */
    post: operations['passkeyRegistrationOptions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/passkeys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The passkeys of the signed-in user */
    get: operations['listPasskeys'];
    put?: never;
    /**
     * Finish registering a passkey with the authenticator’s answer; from then on it signs in
     * @description An account with a passkey signs in with the passkey alone, or after its password with a passkey, a TOTP code or a recovery code.
     */
    post: operations['registerPasskey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/passkeys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Remove a passkey: it signs nobody in afterwards */
    delete: operations['removePasskey'];
    options?: never;
    head?: never;
    /** Rename a passkey (audited as passkey.renamed) */
    patch: operations['renamePasskey'];
    trace?: never;
  };
  '/api/auth/passkey/options': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a passkey sign-in: options for navigator.credentials.get
     * @description With `challenge` (the second-factor challenge of a password sign-in): the passkeys of that account. Without: a passkey-only sign-in with a discoverable credential, which must verify the user (PIN or biometric).
     */
    post: operations['passkeyLoginOptions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/passkey/login': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Sign in with a passkey (alone, or as the second factor with the password challenge)
     * @description Each options challenge answers once and expires after 5 minutes. Any failure is the same 401.
     */
    post: operations['passkeyLogin'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/recovery-codes': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Ten new one-time recovery codes, shown this once; they replace every earlier code
     * @description A recovery code replaces the second factor once (POST /api/auth/2fa/login with recovery_code).
     */
    post: operations['generateRecoveryCodes'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/auth/security': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** What protects the sign-in: TOTP, passkeys, recovery codes left */
    get: operations['getSecurityStatus'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/csrf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The CSRF token of this session, for the csrf query parameter of /api/admin/* mutations */
    get: operations['getCsrfToken'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/api-keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** List the organisation’s active API keys (prefix, name, scopes, expiry, maker, created and last-used times) */
    get: operations['listApiKeys'];
    put?: never;
    /** Create an API key with scopes and an optional expiry; the full key is in this response only */
    post: operations['createApiKey'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/api-keys/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Revoke an API key; it stops working at once on every gateway replica */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/account/settings': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /**
     * Change the account’s settings: session length, biometric retention, expiry and reminder defaults
     * @description session_ttl_hours applies to sessions issued from then on (login, two-factor login, password change); sessions already issued keep their expiry and are not ended. biometric_retention_days applies to transactions created from then on (shown to their signers in the consent text). expiry_days and the reminder schedule (reminder_first_after_hours, reminder_every_hours, reminder_max) apply to transactions created from then on without expires_at or reminder fields of their own. The current values are in POST /api/auth/me. Unknown fields, no field, or a value out of range: 400 and nothing changes.
     */
    patch: operations['updateAccountSettings'];
    trace?: never;
  };
  '/api/admin/account/embed-origins': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The origins that may frame this account’s signing pages (embedded signing) */
    get: operations['getEmbedOrigins'];
    /**
     * Replace the origins that may frame this account’s signing pages (embedded signing)
     * @description The signing page of every link of this account (sent before or after) sends frame-ancestors with exactly these origins, and posts its events to them only. A bad origin: 400 naming it, nothing changes. Duplicates are dropped.
     */
    put: operations['setEmbedOrigins'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/account/branding': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organisation’s branding (signing page and mails to signers) */
    get: operations['getBranding'];
    /**
     * Replace the display name, colour and Reply-To (the logo stays)
     * @description A bad part is a 400 naming it and nothing changes: a colour white text cannot be read on (WCAG AA 4.5:1; the answer names the contrast and a darker colour that passes), a Reply-To that is not an email address, a display name with control characters.
     */
    put: operations['setBranding'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/account/branding/logo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Set the logo: a PNG or JPEG as the request body (SVG is refused)
     * @description At most 512 KB and 1024×1024 pixels (at least 16×16). Decoded and re-encoded as PNG, so nothing but the pixels is kept. Another type (SVG included), an image that does not decode or is out of bounds: 400, nothing changes.
     */
    put: operations['setBrandingLogo'];
    post?: never;
    /** Remove the logo */
    delete: operations['deleteBrandingLogo'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/branding/logos/{sha256}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** An organisation’s logo, by the SHA-256 of its PNG (as the signing page and mails link it) */
    get: operations['getBrandingLogo'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/members': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The organisation’s members and its pending invitations */
    get: operations['listMembers'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/members/invitations': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Invite someone by e-mail; the mail carries a single-use link valid for 7 days
     * @description Admins invite viewers, senders and admins; only owners invite owners. An address that already has a Signet account is 409 (it cannot bring its own organisation along). Inviting the same address again withdraws the earlier invitation.
     */
    post: operations['inviteMember'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/members/invitations/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Withdraw a pending invitation; its link stops working */
    delete: operations['revokeInvitation'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/members/{user_id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Remove a member: their sessions and API keys stop at once
     * @description The transactions they created stay the organisation’s. Admins remove anyone but owners; the founding owner stays (409).
     */
    delete: operations['removeMember'];
    options?: never;
    head?: never;
    /**
     * Give a member another role; it applies from their next request
     * @description Admins move members between viewer, sender and admin; only owners change owners or make one. The founding owner (whose id is the organisation’s) stays owner: 409.
     */
    patch: operations['changeMemberRole'];
    trace?: never;
  };
  '/api/auth/invitations/accept': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Join an organisation through an invitation: creates the account and signs it in
     * @description The code is the one in the invitation mail’s link (after #code=); it works once, for 7 days. The account’s e-mail is the invited address. An unknown, used, withdrawn or expired code: 401.
     */
    post: operations['acceptInvitation'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/audit-log': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The account’s audit log, newest first, filtered and paged
     * @description Filter by actor, action (or action prefix) and time range; follow next_cursor for older entries (null on the last page). Entries are never changed; they are deleted after the retention in docs/privacy.md.
     */
    get: operations['listAuditLog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/audit-log/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The whole filtered audit log as CSV or JSON, streamed
     * @description Same filters as the list. CSV (RFC 4180; details as a JSON cell) or a JSON array, newest first. The export itself is recorded in the log (audit_log.exported, with the format and filters) before the first byte.
     */
    get: operations['exportAuditLog'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/admin/account': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller’s plan, this month’s usage, credits, past-due state and the checkout links
     * @description For the dashboard’s billing page (session JWT only). A checkout link is null when it is not configured.
     */
    get: operations['getAccount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/certificate.pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Certificate of completion (PDF) of an issued transaction */
    get: operations['getCertificatePdf'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/evidence.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The owner’s evidence bundle: cert.json with the openings of the media commitments
     * @description The bundle of GET /api/ledger/proof/{reference} plus commitment_openings: the salt and, per signer, the SHA-256 of the capture video, still frame and reference photo the certificate’s commitments are made of. Verify with `signet-verify evidence.json document.pdf --key <key file> [--media video.webm]`.
     */
    get: operations['getEvidenceBundle'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's transactions, most recent first
     * @description Optionally filtered by status and a search. X-Next-Cursor and Link give the next page (the Link keeps the filter).
     */
    get: operations['listTransactions'];
    put?: never;
    /**
     * Create a transaction
     * @description multipart/form-data; the document is streamed to storage, never buffered. Uses one signature of the monthly quota, or a credit. One signer (signer_name, signer_email, reference) or a list of parties (signers, a JSON array, with the part signer_photo_<index> for each face_match signer). Every reference photo must show exactly one face (checked with the biometrics models). Signers of order 1 are mailed at once; each next order once every signer of the one before passed. Any refusal is a 400 naming the field or signer, with nothing stored and no quota used.
     */
    post: operations['createTransaction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/export.csv': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * All of the caller's transactions as CSV
     * @description Columns reference, signer, email, status, created, verified; streamed. Recorded in the account audit log (transactions.exported) before the first byte.
     */
    get: operations['exportTransactions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One transaction with its signers and full event log */
    get: operations['getTransaction'];
    put?: never;
    post?: never;
    /**
     * Delete a whole finished transaction: document, photos, capture media, signed PDF and personal data
     * @description Only once the transaction has ended (cancel a pending one first) and while it is not on legal hold (409 otherwise, nothing changed). The document and reference photos are deleted before the answer; the capture media and the signed PDF and audit trail right after, through events the other services apply. The certificate stays in the append-only log and /api/verify still answers for it. Afterwards the transaction is gone from the API (404, also for a second DELETE), its signing links and downloads answer 404.
     */
    delete: operations['deleteTransaction'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/resend': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Re-send the signing link
     * @description Only for a transaction not yet in a terminal state, at most once a minute; the state does not change.
     */
    post: operations['resendTransaction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/cancel': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Cancel a pending transaction
     * @description Irreversible: its signing links stop working and no certificate is issued.
     */
    post: operations['cancelTransaction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/biometrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Erase a finished transaction’s biometric data now (reference photo, capture videos and frames)
     * @description The reference photo is erased before the answer, the capture media right after (logged in the transaction’s events as biometrics_erased and media_erased). The certificate stays valid. Erasing again answers 204 and changes nothing.
     */
    delete: operations['eraseTransactionBiometrics'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/legal-hold': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    /**
     * Put a transaction on legal hold: nothing of it is deleted until the hold is released
     * @description For a pending or finished transaction. While held, DELETE of the transaction and of its biometric data answer 409, the retention job skips it and a signer’s erasure request is recorded but waits. Already held: the hold stays as it was.
     */
    put: operations['setLegalHold'];
    post?: never;
    /**
     * Release the legal hold: deletion and erasure apply again
     * @description An erasure that fell due while held runs on the retention job’s next pass. Not held: 204, nothing changes.
     */
    delete: operations['releaseLegalHold'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/test/complete': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Test mode: complete a test transaction with an outcome, without a ceremony
     * @description Only with a test-mode API key (sgn_test_…) and only for its test transactions; anything else is 404. A verified test transaction gets a certificate sealed in the test log (GET /api/ledger/public-key?log=test), never the live one.
     */
    post: operations['completeTestTransaction'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/summary': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signing session: step, attempts left, outcome */
    get: operations['getSigningSummary'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/document': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The PDF being signed, for the signer to read */
    get: operations['getSigningDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/consent': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Record the signer’s consent
     * @description A second consent is 409.
     */
    post: operations['recordConsent'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/challenge': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Issue random words and liveness actions
     * @description For a single upload, which proves the "recorded" assurance at most: offered only where the sender accepts recorded (else 409 LIVE_REQUIRED, nothing drawn). With a nonce valid 2 minutes; replaces any earlier challenge.
     */
    get: operations['issueChallenge'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/capture': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Submit the signing video and final frame with the challenge nonce
     * @description multipart/form-data, streamed: nonce first, then video (WebM/MP4, ≤50 MB, ≤30 s), then frame (JPEG/PNG).
     */
    post: operations['submitCapture'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/live': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Start a live recording
     * @description A new challenge of which only segment 0 (its prompt and screen colour) is revealed; each chunk reveals the next.
     */
    post: operations['startLiveCapture'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/live/{nonce}/chunks/{seq}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Append one chunk of the live recording
     * @description Raw bytes, at most 2 MB; the answer reveals the next segment.
     */
    post: operations['appendLiveChunk'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/live/{nonce}/finish': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Finish the live recording with the final frame
     * @description The frame (JPEG or PNG) is the body; the capture is checked and accepted. A recording that proves less than the signer's required assurance (e.g. only recorded where live is required) is refused with 409 before analysis, and its challenge is used up.
     */
    post: operations['finishLiveCapture'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/decline': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Decline to sign
     * @description Ends the transaction (status `declined`), with an optional reason the sender receives. The link stops working; a signer who already finished gets 409.
     */
    post: operations['declineSigning'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/fields': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The fields this signer fills, with their places and values */
    get: operations['getSigningFields'];
    /**
     * Fill this signer’s fields
     * @description All values at once, replacing earlier ones: each is checked (type, length, pattern, options), every required field must be filled and a drawn signature is a PNG the service decodes and re-encodes. Before the recording only: once a capture was accepted, 409.
     */
    put: operations['submitSigningFields'];
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/webauthn/options': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** WebAuthn registration or authentication options bound to the document and nonce */
    post: operations['getWebauthnOptions'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/webauthn/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Verify the WebAuthn registration or assertion */
    post: operations['verifyWebauthn'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/sign/{token}/forensic': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Log a batch of client forensic events
     * @description At most 64 KB a batch and 200 batches a session.
     */
    post: operations['logForensicEvents'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhook-endpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's webhook endpoints, most recent first
     * @description An API key sees the endpoints of its own mode; a dashboard session both, or one with `mode`.
     */
    get: operations['listWebhookEndpoints'];
    put?: never;
    /**
     * Create a webhook endpoint
     * @description Events are POSTed to the URL signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) with the endpoint’s own secret, returned only in this answer. A 2xx within 10 s counts as delivered; otherwise retried with exponential backoff for about 3 days, after which the endpoint is disabled and the account mailed.
     */
    post: operations['createWebhookEndpoint'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhook-endpoints/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One webhook endpoint */
    get: operations['getWebhookEndpoint'];
    put?: never;
    post?: never;
    /**
     * Delete a webhook endpoint
     * @description Its pending deliveries are cancelled.
     */
    delete: operations['deleteWebhookEndpoint'];
    options?: never;
    head?: never;
    /**
     * Change a webhook endpoint
     * @description Only the fields given change. `enabled: true` turns on an endpoint disabled after persistent failure.
     */
    patch: operations['updateWebhookEndpoint'];
    trace?: never;
  };
  '/api/webhook-endpoints/{id}/roll-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Replace the endpoint’s signing secret
     * @description The new secret is shown only in this answer; deliveries are signed with it from now on. During the overlap (overlap_seconds, default a day) each delivery’s webhook-signature carries both signatures, space-separated as Standard Webhooks allows, so a receiver can switch secrets without losing a delivery; afterwards only the new one.
     */
    post: operations['rollWebhookSecret'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhook-endpoints/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The endpoint’s delivery log, most recent first
     * @description Each delivery with its attempts: time, HTTP status, latency and at most 1 KB of the answer.
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a delivery again now
     * @description Whatever its state, with the same webhook-id, as a new round of retries. 409 while the endpoint is disabled.
     */
    post: operations['redeliverWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The caller's templates, most recent first
     * @description Paged by `cursor` (the previous page’s next_cursor). A test-mode key sees only test templates, a live key only live ones.
     */
    get: operations['listTemplates'];
    put?: never;
    /**
     * Create a template
     * @description multipart/form-data: the PDF (`document`), `name`, `roles` (JSON) and `fields` (JSON, each naming its role). The fields are checked as a transaction’s and placed on the document; any refusal is a 400 naming the field, with nothing stored.
     */
    post: operations['createTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/templates/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One template */
    get: operations['getTemplate'];
    put?: never;
    post?: never;
    /**
     * Delete a template
     * @description Its document is removed; transactions made from it keep their own copy.
     */
    delete: operations['deleteTemplate'];
    options?: never;
    head?: never;
    /**
     * Change a template
     * @description Only what is given changes (name, roles, fields: each replaces the old). The result is checked whole as at creation (the fields must name the roles and lie on the document without overlapping another role’s); a refusal is a 400 and changes nothing.
     */
    patch: operations['updateTemplate'];
    trace?: never;
  };
  '/api/templates/{id}/document': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The template’s document (the PDF as uploaded) */
    get: operations['getTemplateDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/templates/{id}/transactions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Create a transaction from a template
     * @description JSON (at most 40 MB): one signer per role (name, email, and for a face_match role the face photo as base64: JPEG or PNG, at most 10 MB, exactly one face) and prefilled `values` by field id. The transaction gets its own copy of the template’s document and its fields; creation is as POST /api/transactions (one signature of the quota or a credit, events, mails, Idempotency-Key). Any refusal is a 400 naming the signer or field, with nothing stored and no quota used.
     */
    post: operations['createTransactionFromTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/templates/{id}/bulk': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Bulk send: one transaction from the template per row (CSV or JSON, up to 1,000 rows)
     * @description text/csv: a header, then one row per transaction; each role of the template has the columns <role>_name and <role>_email (and <role>_photo, a base64 JPEG or PNG, for a face-match role), each prefilled value the column value_<field id>. application/json: {"rows": [{"signers": {"<role>": {"name", "email", "photo"?}}, "values"?: {"<field id>": …}}]}. A missing column, an unknown role or field, or a row beyond 1,000 is a 400 and nothing is stored; a row of its own problem (an invalid e-mail, a missing name or photo) is failed with its reason and the others are sent. The job is stored before the answer and runs in the background: each row uses a signature of the quota or a credit as a creation does, and when both run out the remaining rows are not sent (each says so). The same Idempotency-Key returns the first job.
     */
    post: operations['createBulkJob'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/bulk/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A bulk job: its progress and each row’s outcome */
    get: operations['getBulkJob'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/bulk': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The bulk jobs, newest first, with their counts */
    get: operations['listBulkJobs'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ledger/proof/{reference}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The evidence bundle (cert.json) of a certificate: certificate, ledger seal, inclusion proof and signed checkpoint
     * @description Needs the document hash prefix like /api/verify, so that references cannot be enumerated for signer names. Verify offline with `signet-verify cert.json document.pdf --key <verifier_key>`.
     */
    get: operations['getProofBundle'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ledger/checkpoint': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The latest signed checkpoint of the certificate log (JSON, or the bare note with Accept: text/plain) */
    get: operations['getCheckpoint'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ledger/consistency': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** RFC 9162 consistency proof between two sizes of the log */
    get: operations['getConsistencyProof'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ledger/public-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The log’s Ed25519 public keys (current and retired, with their periods), as signed-note verifier keys and PEM */
    get: operations['getLedgerPublicKey'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ledger/checkpoints': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Every signed checkpoint of the certificate log in a range of sizes, with its witness cosignatures (paged)
     * @description Oldest first. `next_from` (and a Link rel="next" header) gives the next page; null ends the range. Each checkpoint is a C2SP signed note: the log signature line, then the witnesses’ cosignature lines (c2sp.org/tlog-cosignature).
     */
    get: operations['listLedgerCheckpoints'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/ledger/keys': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The verifier keys of the log and of its witnesses (C2SP signed-note format), for offline verification
     * @description Each key is a C2SP note verifier key (golang.org/x/mod/sumdb/note): the log’s keys verify the checkpoints and ledger seals (`signet-verify --key`), the witnesses’ keys their cosignatures (`signet-verify --witness`, quorum `witness_quorum`). With Accept: text/plain, the verifier keys one a line in the same order.
     */
    get: operations['listLedgerKeys'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/webhooks/dodo': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Payment-provider webhook (Standard Webhooks signature); not for customer use
     * @description Called by the payment provider only. A bad signature is 401; a failure half-way is 5xx so the provider retries.
     */
    post: operations['receivePaymentWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/signed.pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed PDF of an issued transaction: the document, its audit trail and evidence, PAdES B-T sealed */
    get: operations['getSignedPdf'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/transactions/{id}/audit-trail.pdf': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The audit-trail PDF of an issued transaction: every signer's recorded ceremony and the certificate's place in the log */
    get: operations['getAuditTrailPdf'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/downloads/{token}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The signed PDF through a completion mail's download link (no account needed; the link expires) */
    get: operations['downloadSignedPdf'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
};
export type webhooks = Record<string, never>;
export type components = {
  schemas: {
    BrandingInput: {
      /**
       * @description Shown to signers instead of the organisation’s name (signing page, mails); empty: the organisation’s name
       * @default
       */
      display_name: string;
      /**
       * @description Primary colour #rrggbb of the signing page’s header and buttons and of the mails’ header and button. White text on it must reach WCAG AA 4.5:1, else 400 naming the contrast and a darker colour that passes. Empty: Signet’s own
       * @default
       * @example #0b5cad
       */
      color: string;
      /**
       * @description Reply-To of every mail to signers; empty: none
       * @default
       */
      reply_to: string;
    };
    LegalHoldRequest: {
      /** @description Why the data must be kept (at most 500 characters) */
      reason?: string;
    };
    TestCompletion: {
      /**
       * @description verified: every signer passes and the test log seals the certificate; failed: the transaction fails
       * @enum {string}
       */
      outcome: 'verified' | 'failed';
    };
    SignatureMark: {
      /** @description A drawn mark: PNG (base64), 16×8 to 1200×600 pixels, at most 256 KB; re-encoded by the service */
      png?: string;
      /** @description A typed mark: at most 100 characters */
      typed?: string;
    };
    WebhookEndpointCreate: {
      /**
       * @description http(s) URL; loopback, private and link-local addresses are refused
       * @example https://example.com/hooks/signet
       */
      url: string;
      event_types: (
        | 'transaction.created'
        | 'signer.link_sent'
        | 'signer.opened'
        | 'signer.consented'
        | 'signer.verified'
        | 'signer.failed'
        | 'signer.declined'
        | 'transaction.completed'
        | 'transaction.expired'
        | 'transaction.cancelled'
        | 'certificate.issued'
        | 'signed_document.ready'
        | 'bulk.completed'
      )[];
      description?: string;
      /**
       * @description Which transactions’ events it receives. An API key creates endpoints of its own mode (naming the other is 400); a dashboard session chooses, default live
       * @enum {string}
       */
      mode?: 'live' | 'test';
    };
    WebhookEndpointUpdate: {
      /**
       * @description http(s) URL; loopback, private and link-local addresses are refused
       * @example https://example.com/hooks/signet
       */
      url?: string;
      event_types?: (
        | 'transaction.created'
        | 'signer.link_sent'
        | 'signer.opened'
        | 'signer.consented'
        | 'signer.verified'
        | 'signer.failed'
        | 'signer.declined'
        | 'transaction.completed'
        | 'transaction.expired'
        | 'transaction.cancelled'
        | 'certificate.issued'
        | 'signed_document.ready'
        | 'bulk.completed'
      )[];
      description?: string;
      enabled?: boolean;
    };
    TemplateRole: {
      /** @description Unique in the template, e.g. client or witness */
      name: string;
      /** @description Routing order (1 first; equal orders sign in parallel); default 1 */
      order?: number;
      /**
       * @description face_match (default) needs a photo for this role in each transaction; liveness_only none
       * @enum {string}
       */
      verification?: 'face_match' | 'liveness_only';
      webauthn?: boolean;
      /**
       * @description recorded, live (default) or live+webauthn
       * @enum {string}
       */
      required_assurance?: 'recorded' | 'live' | 'live+webauthn';
    };
    /** @description A field as in a transaction’s `fields` (FormFieldSpec: type, id, required, readonly, label, value, max_length, pattern, options, page/x/y/width/height or anchor/offset_x/offset_y), with `role` (a role’s name) instead of `signer`. */
    TemplateField: {
      [key: string]: unknown;
    };
    BulkUpload: {
      rows: {
        /** @description The signer of each role of the template, by role name */
        signers: {
          [key: string]: {
            name: string;
            email: string;
            /** @description A base64 JPEG or PNG showing the signer’s face (face-match roles); the same photo may be given on many rows */
            photo?: string;
          };
        };
        /** @description Prefilled values by field id */
        values?: {
          [key: string]: string | boolean;
        };
      }[];
    };
    Verification: {
      valid: boolean;
      reference: string;
      signer_name: string;
      /** @description The issuing sender organisation */
      issuer_name: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      verified_at: string;
      document_sha256_prefix: string;
      verification_mode: string;
      ledger_seal: string;
      /**
       * @description The transparency log that sealed the certificate, not an assurance level: live (the production log) or test for a test-mode certificate (free, proves no real signing; key: GET /api/ledger/public-key?log=test). What the ceremony proved is `assurance`.
       * @enum {string}
       */
      log: 'live' | 'test';
      /** @description What the certificate proves as a whole: the weakest of its signers’ assurance levels (test < recorded < live < live+webauthn) */
      assurance: components['schemas']['AssuranceLevel'];
      /** @description One plain sentence saying what `assurance` proves and what it does not */
      assurance_meaning: string;
      /** @description Every certified signer, in the certificate’s order */
      signers: components['schemas']['VerifiedSigner'][];
    };
    /**
     * @description What a signer’s ceremony proved, weakest first: test (a test-mode transaction completed by its sender, no ceremony), recorded (a recording that matched the prompts, possibly made before they were shown), live (produced in real time after each prompt was revealed), live+webauthn (live, and a WebAuthn authenticator confirmed the same session)
     * @enum {string}
     */
    AssuranceLevel: 'test' | 'recorded' | 'live' | 'live+webauthn';
    VerifiedSigner: {
      name: string;
      /** @description signer or approver */
      role: string;
      assurance: components['schemas']['AssuranceLevel'];
      /** @description What this signer’s level proves, as sealed with the certificate */
      assurance_meaning: string;
    };
    SignedPdfVerification: {
      /** @description Every check passed */
      valid: boolean;
      /** @description The certificate reference cert.json carries */
      reference: string | null;
      /** @description The log of the certificate: test for a test-mode one (no real signing) */
      log: ('live' | 'test') | null;
      /** @description The sealing certificate’s subject */
      sealed_by: string | null;
      /**
       * Format: date-time
       * @description The RFC 3161 time of the seal, ISO 8601 UTC
       */
      timestamp: string | null;
      /** @description What the certificate proves as a whole (its weakest signer’s level); null unless every check passed: a certificate that does not verify proves nothing */
      assurance: components['schemas']['AssuranceLevel'] | null;
      /** @description One plain sentence saying what `assurance` proves */
      assurance_meaning: string | null;
      /** @description Every certified signer and their level; empty unless every check passed */
      signers: components['schemas']['VerifiedSigner'][];
      /** @description coverage, integrity, timestamp, certificate, evidence … (cert.json: bundle, leaf, checkpoint, inclusion, seal), consistency */
      checks: {
        name: string;
        ok: boolean;
        detail: string;
      }[];
    };
    Session: {
      /** @description Session JWT (HS256) */
      token: string;
      email: string;
      org_name: string;
      /** Format: date-time */
      expires_at: string;
    };
    /** @description Post the challenge with a TOTP code or a recovery code to /api/auth/2fa/login, or sign with a passkey (/api/auth/passkey/options then /api/auth/passkey/login, with the challenge); single use, valid 5 minutes */
    MfaChallenge: {
      /** @constant */
      mfa_required: true;
      challenge: string;
      /** Format: date-time */
      expires_at: string;
      /** @description The second factors this account may use */
      methods: ('totp' | 'passkey' | 'recovery_code')[];
    };
    Profile: {
      user_id: string;
      email: string;
      name: string;
      org_name: string;
      two_factor_enabled: boolean;
      session_ttl_hours: number;
      biometric_retention_days: number;
      expiry_days: number;
      reminder_first_after_hours: number;
      reminder_every_hours: number;
      reminder_max: number;
      /** Format: date-time */
      created_at: string;
      /** @enum {string} */
      auth_method: 'session' | 'api_key';
      /** @description The organisation: its owner’s user id (an owner’s own) */
      organisation_id: string;
      /**
       * @description What this credential may do in the organisation (an API key: bounded by its scopes)
       * @enum {string}
       */
      role: 'viewer' | 'sender' | 'admin' | 'owner';
      /** @description An API key’s scopes */
      scopes?: string[];
      /** @enum {string} */
      plan?: 'Free' | 'Pro' | 'Firm';
      monthly_limit?: number;
      monthly_used?: number;
      signature_credits?: number;
      past_due?: boolean;
    };
    Passkey: {
      id: string;
      name: string;
      /** Format: date-time */
      created_at: string;
      last_used_at: string | null;
    };
    SecurityStatus: {
      totp_enabled: boolean;
      passkeys: number;
      recovery_codes_left: number;
    };
    ApiKeyCreated: {
      id: string;
      name: string;
      /** @description The visible start of the key: 12 characters, 17 for a test key (sgn_test_…) */
      prefix: string;
      /**
       * @description live (default): real, billed transactions; test: free, marked test, never listed with live data (prefix sgn_test_)
       * @enum {string}
       */
      mode: 'live' | 'test';
      scopes: ('read' | 'write' | 'admin')[];
      /** @description When the key stops working; null: never */
      expires_at: string | null;
      /** @description The member whose role bounds the key (removing them revokes it) */
      created_by: string;
      /** Format: date-time */
      created_at: string;
      /** @description Updated at most once a minute */
      last_used_at: string | null;
      /** @description Send as X-API-Key; shown once */
      key: string;
    };
    ApiKey: {
      id: string;
      name: string;
      /** @description The visible start of the key: 12 characters, 17 for a test key (sgn_test_…) */
      prefix: string;
      /**
       * @description live (default): real, billed transactions; test: free, marked test, never listed with live data (prefix sgn_test_)
       * @enum {string}
       */
      mode: 'live' | 'test';
      scopes: ('read' | 'write' | 'admin')[];
      /** @description When the key stops working; null: never */
      expires_at: string | null;
      /** @description The member whose role bounds the key (removing them revokes it) */
      created_by: string;
      /** Format: date-time */
      created_at: string;
      /** @description Updated at most once a minute */
      last_used_at: string | null;
    };
    EmbedOrigins: {
      origins: string[];
    };
    Branding: {
      display_name: string;
      /** @description #rrggbb, or empty */
      color: string;
      reply_to: string;
      /** @description Public URL of the logo (PNG, re-encoded by Signet); null: no logo */
      logo_url: string | null;
      logo_width: number;
      logo_height: number;
      updated_at: string | null;
    };
    Member: {
      user_id: string;
      email: string;
      name: string;
      /**
       * @description viewer reads; sender also creates and acts on transactions, templates and bulk sends; admin also manages API keys, webhooks, members (not owners), settings and branding; owner also billing and ownership
       * @enum {string}
       */
      role: 'viewer' | 'sender' | 'admin' | 'owner';
      /** Format: date-time */
      joined_at: string;
    };
    Invitation: {
      id: string;
      email: string;
      /**
       * @description viewer reads; sender also creates and acts on transactions, templates and bulk sends; admin also manages API keys, webhooks, members (not owners), settings and branding; owner also billing and ownership
       * @enum {string}
       */
      role: 'viewer' | 'sender' | 'admin' | 'owner';
      invited_by: string;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      expires_at: string;
    };
    AuditEventPage: {
      events: components['schemas']['AuditEvent'][];
      next_cursor: string | null;
    };
    AuditEvent: {
      id: string;
      /** Format: date-time */
      at: string;
      action: string;
      actor_id: string;
      actor_email: string;
      target: string;
      ip: string;
      user_agent: string;
      details: {
        [key: string]: string;
      };
    };
    Account: {
      /** @enum {string} */
      plan: 'Free' | 'Pro' | 'Firm';
      monthly_limit: number;
      monthly_used: number;
      signature_credits: number;
      past_due: boolean;
      /** Format: date-time */
      past_due_since: string | null;
      /**
       * Format: date-time
       * @description When a past-due account is downgraded
       */
      grace_ends_at: string | null;
      checkout: {
        /** Format: uri */
        pro: string | null;
        /** Format: uri */
        firm: string | null;
        /** Format: uri */
        credits: string | null;
      };
    };
    CertificateBundle: {
      /**
       * @description v2 since issue 17 (certificates of version 2); v1 bundles saved before it keep verifying
       * @enum {string}
       */
      format: 'signet-certificate-bundle/v2' | 'signet-certificate-bundle/v1';
      /** @description The sealed certificate; its RFC 8785 canonical JSON is the leaf */
      certificate: {
        [key: string]: unknown;
      };
      ledger_seal: string;
      leaf_index: number;
      tree_size: number;
      inclusion_proof: string[];
      /** @description C2SP tlog-checkpoint as a signed note */
      checkpoint: string;
      /** @description Only in the owner’s copy (GET /api/transactions/{id}/evidence.json): the salt and media hashes the certificate’s commitments are made of */
      commitment_openings?: {
        salt: string;
        signers: {
          video_sha256: string;
          frame_sha256: string;
          reference_sha256: string;
        }[];
      };
    };
    TransactionCreated: {
      id: number;
      reference: string;
      token: string;
      /** @description {base_url}/sign/<token> */
      sign_url: string;
      status: string;
      /** @description Made with a test-mode API key (no quota or credit used) */
      test: boolean;
    };
    TransactionSummary: {
      id: number;
      /** @description Signing token (a bearer secret of the signing link) */
      token: string;
      signer_name: string;
      signer_email: string;
      /** @enum {string} */
      status:
        'created' | 'consent_accepted' | 'capture_accepted' | 'ledger_issued' | 'failed' | 'cancelled' | 'declined' | 'expired';
      /** @description biometric, or the mode verification used */
      verification_mode: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Only once verified
       */
      verified_at?: string;
      /** @description Certificate reference <prefix>-TX-<8 digits> */
      reference: string;
      /** @description Made with a test-mode API key: free, listed and found only with test keys, sealed in the test log */
      test: boolean;
    };
    TransactionDetail: {
      id: number;
      /** @description Signing token (a bearer secret of the signing link) */
      token: string;
      signer_name: string;
      signer_email: string;
      /** @enum {string} */
      status:
        'created' | 'consent_accepted' | 'capture_accepted' | 'ledger_issued' | 'failed' | 'cancelled' | 'declined' | 'expired';
      /** @description biometric, or the mode verification used */
      verification_mode: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      created_at: string;
      /**
       * Format: date-time
       * @description Only once verified
       */
      verified_at?: string;
      /** @description Certificate reference <prefix>-TX-<8 digits> */
      reference: string;
      /** @description Made with a test-mode API key: free, listed and found only with test keys, sealed in the test log */
      test: boolean;
      attestation_type: string;
      document_name: string;
      document_sha256: string;
      signers: {
        index: number;
        name: string;
        email: string;
        state: string;
        verification_mode: string;
        attempts_left: number;
        /** @description signer or approver */
        role: string;
        /** @description Routing order: 1 first, equal orders in parallel */
        order: number;
        /** @description Also confirms with WebAuthn */
        webauthn: boolean;
        /**
         * @description The lowest assurance the sender accepts from this signer (recorded, live, live+webauthn); recorded on transactions created before it existed
         * @enum {string}
         */
        required_assurance: 'recorded' | 'live' | 'live+webauthn';
        /** @description What this signer’s passing capture proved (test, recorded, live, live+webauthn); null until the signer passed */
        assurance: components['schemas']['AssuranceLevel'] | null;
        /** @description One plain sentence saying what `assurance` proves and what it does not; null until the signer passed */
        assurance_meaning: string | null;
        /** @description The language the sender chose for this signer’s page and mails; null: not chosen (the browser’s, mails in English) */
        locale: ('en' | 'de' | 'fr' | 'es' | 'pl' | 'pt' | 'ar' | 'zh') | null;
      }[];
      /** @description What the transaction proves as a whole once every signer passed: the weakest signer’s assurance, as its certificate states it; null until then */
      assurance: components['schemas']['AssuranceLevel'] | null;
      /** @description One plain sentence saying what `assurance` proves; null until every signer passed */
      assurance_meaning: string | null;
      events: components['schemas']['TransactionEvent'][];
      /** @description Parties who only receive the result (no signing link, not certified) */
      viewers: {
        name: string;
        email: string;
        order: number;
      }[];
      /** @description Days the biometric data is kept after the transaction ends */
      retention_days: number;
      biometrics_delete_after: string | null;
      /**
       * Format: date-time
       * @description When the biometric data was erased; only once erased
       */
      biometrics_erased_at?: string;
      /** @description When the signing links stop working; null for transactions created before expiry existed */
      expires_at: string | null;
      /** @description The legal hold: while set nothing of the transaction is deleted; null when there is none */
      legal_hold: components['schemas']['LegalHold'] | null;
      /** @description The member of the organisation who created it; null for transactions made before members existed */
      created_by: {
        user_id: string;
        email: string;
      } | null;
      /** @description The automatic reminder schedule (to signers who have not finished) */
      reminders: {
        /** @description Automatic reminders sent so far */
        sent: number;
        /** @description At most this many are sent */
        max: number;
        /** @description When the next is due; null when none is */
        next_at: string | null;
      };
    };
    TransactionEvent: {
      type: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      at: string;
      actor: string;
      detail: string;
    };
    LegalHold: {
      /**
       * Format: date-time
       * @description Since when
       */
      since: string;
      /** @description Why the data must be kept (may be empty) */
      reason: string;
    };
    SigningSummary: {
      signer_name: string;
      issuer_name: string;
      document_name: string;
      document_sha256_prefix: string;
      attestation_type: string;
      attestation_text: string;
      /** @description The step the page shows next */
      step: string;
      attempts_left: number;
      attempt: number;
      webauthn_offered: boolean;
      webauthn_done: boolean;
      /** @description The sender asked for the device confirmation: a capture without it is refused (409) */
      webauthn_required: boolean;
      /** @description The lowest assurance the sender accepts: recorded, live or live+webauthn. Below it a capture is refused (409) before analysis and its challenge is used up; the single upload (GET …/challenge) is offered only with recorded */
      required_assurance: string;
      verification_mode: string;
      /** @description verified or failed once decided, else null */
      outcome: string | null;
      consent_text_version: string;
      consent_text: string;
      draws_left: number;
      redo: string[];
    };
    SigningChallenge: {
      words: string[];
      actions: string[];
      nonce: string;
      expires_at: string;
      attempt: number;
      action_seconds: number;
      read_seconds: number;
      timeline: {
        segment_ms: number;
        words_start_ms: number;
        words_end_ms: number;
        actions: {
          action: string;
          start_ms: number;
          end_ms: number;
        }[];
        colours: string[];
        total_ms: number;
        flash: {
          segment: number;
          step_ms: number;
          colours: string[];
        } | null;
      } | null;
      draws_left: number;
      assurance: string;
    };
    CaptureReceipt: {
      capture_id: string;
      attempt: number;
      status: string;
      video_sha256: string;
      frame_sha256: string;
      duration_seconds: number;
      assurance: string;
    };
    LiveStart: {
      nonce: string;
      expires_at: string;
      attempt: number;
      segment_ms: number;
      segments: number;
      draws_left: number;
      reveal: components['schemas']['LiveReveal'] | null;
    };
    LiveReveal: {
      segment: number;
      colour: string;
      prompt: string;
      words: string[];
      action: string | null;
      action_number: number;
      action_count: number;
      flashes: string[];
      flash_ms: number;
    };
    LiveAck: {
      seq: number;
      done: boolean;
      reveal: components['schemas']['LiveReveal'] | null;
    };
    SigningDeclined: {
      /**
       * @description The transaction has ended
       * @constant
       */
      status: 'declined';
      /** Format: date-time */
      declined_at: string;
    };
    SignerFields: {
      fields: components['schemas']['SignerField'][];
      /** @description Every required field has a value (and the signature/initials they need) */
      complete: boolean;
      /** Format: date-time */
      submitted_at: string | null;
      signature: ('drawn' | 'typed') | null;
      initials: ('drawn' | 'typed') | null;
    };
    SignerField: {
      id: string;
      /** @enum {string} */
      type: 'signature' | 'initials' | 'date_signed' | 'full_name' | 'email' | 'text' | 'checkbox' | 'dropdown';
      required: boolean;
      /** @description Prefilled by the sender; the signer cannot change it */
      readonly: boolean;
      label: string;
      /** @description Where the field is: PDF points from the lower-left corner of the page as shown (crop box) */
      places: {
        /** @description 1 = the first page */
        page: number;
        x: number;
        y: number;
        width: number;
        height: number;
      }[];
      max_length?: number;
      /** @description RE2 syntax; the whole value must match */
      pattern?: string;
      options?: string[];
      /** @description The value so far: submitted, else prefilled, else the service’s own (date_signed, full_name, email); null: none */
      value: string | boolean | null;
      /** @description The text in the PDF that placed the field */
      anchor?: string;
    };
    WebhookEndpointWithSecret: {
      id: string;
      url: string;
      event_types: (
        | 'transaction.created'
        | 'signer.link_sent'
        | 'signer.opened'
        | 'signer.consented'
        | 'signer.verified'
        | 'signer.failed'
        | 'signer.declined'
        | 'transaction.completed'
        | 'transaction.expired'
        | 'transaction.cancelled'
        | 'certificate.issued'
        | 'signed_document.ready'
        | 'bulk.completed'
      )[];
      description: string;
      enabled: boolean;
      /**
       * @description live: receives live transactions’ events; test: test transactions’ (test keys see only these)
       * @enum {string}
       */
      mode: 'live' | 'test';
      /**
       * @description Empty while enabled; "failing" after persistent delivery failure; "owner" when disabled by an update
       * @enum {string}
       */
      disabled_reason: '' | 'failing' | 'owner';
      created_at: string;
      updated_at: string;
      /** @description After a roll: until when deliveries also carry the previous secret’s signature (null: no overlap) */
      previous_secret_expires_at: string | null;
      /** @description The Standard Webhooks signing secret (whsec_…), shown only in this answer */
      secret: string;
    };
    WebhookEndpoint: {
      id: string;
      url: string;
      event_types: (
        | 'transaction.created'
        | 'signer.link_sent'
        | 'signer.opened'
        | 'signer.consented'
        | 'signer.verified'
        | 'signer.failed'
        | 'signer.declined'
        | 'transaction.completed'
        | 'transaction.expired'
        | 'transaction.cancelled'
        | 'certificate.issued'
        | 'signed_document.ready'
        | 'bulk.completed'
      )[];
      description: string;
      enabled: boolean;
      /**
       * @description live: receives live transactions’ events; test: test transactions’ (test keys see only these)
       * @enum {string}
       */
      mode: 'live' | 'test';
      /**
       * @description Empty while enabled; "failing" after persistent delivery failure; "owner" when disabled by an update
       * @enum {string}
       */
      disabled_reason: '' | 'failing' | 'owner';
      created_at: string;
      updated_at: string;
      /** @description After a roll: until when deliveries also carry the previous secret’s signature (null: no overlap) */
      previous_secret_expires_at: string | null;
    };
    WebhookDelivery: {
      id: string;
      endpoint_id: string;
      /** @description The webhook-id header: the same on every attempt */
      webhook_id: string;
      /** @enum {string} */
      event_type:
        | 'transaction.created'
        | 'signer.link_sent'
        | 'signer.opened'
        | 'signer.consented'
        | 'signer.verified'
        | 'signer.failed'
        | 'signer.declined'
        | 'transaction.completed'
        | 'transaction.expired'
        | 'transaction.cancelled'
        | 'certificate.issued'
        | 'signed_document.ready'
        | 'bulk.completed';
      transaction_id: number;
      /** @enum {string} */
      status: 'pending' | 'delivered' | 'failed' | 'cancelled';
      created_at: string;
      /** @description When the next attempt is due; null unless pending */
      next_attempt_at: string | null;
      attempts: components['schemas']['WebhookAttempt'][];
    };
    WebhookAttempt: {
      at: string;
      /** @description The HTTP status; 0 when there was none */
      status: number;
      latency_ms: number;
      /** @enum {string} */
      result: 'success' | 'http_error' | 'timeout' | 'network_error' | 'refused_address';
      /** @description At most 1 KB of the response body, or the error */
      response_snippet: string;
    };
    Template: {
      id: string;
      name: string;
      roles: {
        name: string;
        order: number;
        /** @description face_match or liveness_only */
        verification: string;
        webauthn: boolean;
        /** @description recorded, live or live+webauthn */
        required_assurance: string;
      }[];
      fields: components['schemas']['TemplateField'][];
      document_name: string;
      document_sha256: string;
      document_size: number;
      /** @description The document’s pages as fields are placed on them (crop box, PDF points) */
      pages: {
        width: number;
        height: number;
      }[];
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      created_at: string;
      /**
       * Format: date-time
       * @description ISO 8601 UTC
       */
      updated_at: string;
      /** @description Made with a test-mode API key: found only in test mode */
      test: boolean;
    };
    TemplateList: {
      items: components['schemas']['Template'][];
      /** @description Pass as cursor for the next page; null: no more */
      next_cursor: string | null;
    };
    BulkJob: {
      id: string;
      template_id: string;
      /** @enum {string} */
      state: 'running' | 'completed';
      test: boolean;
      rows: number;
      pending: number;
      created: number;
      failed: number;
      /** @description Rows not sent because the quota and the credits ran out */
      not_sent: number;
      created_at: string;
      completed_at: string | null;
      /** @description Each row’s outcome (not in lists) */
      results?: components['schemas']['BulkRowResult'][];
    };
    BulkRowResult: {
      /** @description The row’s position in the upload, from 0 (CSV: line = row + 2) */
      row: number;
      /** @enum {string} */
      status: 'pending' | 'created' | 'failed' | 'not_sent';
      /** @description Why the row failed or was not sent */
      reason?: string;
      transaction_id?: number;
      reference?: string;
    };
    Checkpoint: {
      origin: string;
      tree_size: number;
      root_hash: string;
      checkpoint: string;
      /**
       * @description The log this checkpoint is of: test is the test-mode log
       * @enum {string}
       */
      log: 'live' | 'test';
    };
    CheckpointHistory: {
      checkpoints: {
        tree_size: number;
        /** @description C2SP tlog-checkpoint as a signed note, with cosignatures */
        checkpoint: string;
        /** Format: date-time */
        signed_at: string;
        /** @description witness cosignatures it carries */
        cosignatures: number;
      }[];
      next_from: number | null;
      /**
       * @description The log these checkpoints are of
       * @enum {string}
       */
      log: 'live' | 'test';
    };
    LedgerKeys: {
      logs: {
        /** @enum {string} */
        log: 'live' | 'test';
        /** @description The checkpoint origin (first line of every checkpoint of this log) */
        origin: string;
        /** @description How many of the listed witnesses cosign a checkpoint before it is served; 0: witnessing off */
        witness_quorum: number;
      }[];
      keys: {
        /**
         * @description log: signs the checkpoints and the ledger seals; witness: cosigns the log’s checkpoints (c2sp.org/tlog-cosignature)
         * @enum {string}
         */
        role: 'log' | 'witness';
        /**
         * @description The log the key signs or cosigns for: test is the test-mode log
         * @enum {string}
         */
        log: 'live' | 'test';
        /** @description The key name: the log’s origin, or the witness’s name as its cosignature lines carry it */
        name: string;
        /** @description The 4-byte key id, hex, as in the signature lines */
        key_id: string;
        /**
         * @description C2SP signed-note verifier key <name>+<key id>+<base64(type ‖ Ed25519 key)>: type 0x01 for a log key (signet-verify --key), 0x04 for a witness key (signet-verify --witness)
         * @example signet.example/log+0a1b2c3d+AQ…
         */
        verifier_key: string;
        /** @description A log key the log signs with now (false: retired, still verifies what it signed in its period); witnesses: true */
        current: boolean;
        /** @description Log keys: since when the key signs (RFC 3339); null: open */
        not_before: string | null;
        /** @description Log keys: when the key stopped signing (RFC 3339); null: still signing */
        not_after: string | null;
      }[];
    };
    /** @description Every error answer */
    Error: {
      /** @description What went wrong, for a person to read */
      detail: string;
    };
  };
  responses: {
    /** @description The request is malformed or a field is not valid */
    BadRequest: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Missing or invalid authentication */
    Unauthorized: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The monthly quota and the signature credits are exhausted */
    PaymentRequired: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Not allowed */
    Forbidden: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Not found (also for another owner’s resource) */
    NotFound: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description The resource is not in a state that allows this */
    Conflict: {
      headers: {
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
    /** @description Rate limited: wait Retry-After seconds */
    TooManyRequests: {
      headers: {
        /** @description Seconds to wait before trying again */
        'Retry-After': string;
        [name: string]: unknown;
      };
      content: {
        'application/json': components['schemas']['Error'];
      };
    };
  };
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
  verifyCertificate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The certificate reference */
        label: string;
        /** @description The first 16 hexadecimal characters of the SHA-256 of the original document or of the signed PDF the ledger made of it, or all 64 (then the whole hash must match); either case */
        hash: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The certificate verification result */
      200: {
        headers: {
          /** @description public, max-age=60 */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Verification'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  verifySignedPdf: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/pdf': string;
      };
    };
    responses: {
      /** @description Every check and its outcome */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SignedPdfVerification'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  register: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          password: string;
          name: string;
        };
      };
    };
    responses: {
      /** @description Code mailed */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'code_sent';
            email: string;
            /** Format: date-time */
            code_expires_at: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  sendSignupCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
        };
      };
    };
    responses: {
      /** @description Code mailed */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'code_sent';
            email: string;
            /** Format: date-time */
            code_expires_at: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  verifyEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          code: string;
        };
      };
    };
    responses: {
      /** @description Email verified */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            verified: boolean;
            email: string;
            onboarding_token: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  completeOnboarding: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          onboarding_token: string;
          org_name: string;
        };
      };
    };
    responses: {
      /** @description Account created; a session */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  checkEmail: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
        };
      };
    };
    responses: {
      /** @description Answer */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            email: string;
            exists: boolean;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  login: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description A session, or a two-factor challenge */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'] | components['schemas']['MfaChallenge'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  completeMfaLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          challenge: string;
          /** @description A TOTP code */
          code?: string;
          /** @description A recovery code (XXXX-XXXX-XXXX), used once */
          recovery_code?: string;
        };
      };
    };
    responses: {
      /** @description A session */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getProfile: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Profile */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Profile'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  changePassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          current_password: string;
          new_password: string;
        };
      };
    };
    responses: {
      /** @description A new session */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  setupTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Pending secret */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Base32 */
            secret: string;
            otpauth_uri: string;
            /** @description data:image/png;base64,… */
            qr_data_url: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  enableTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          code: string;
        };
      };
    };
    responses: {
      /** @description On */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            two_factor_enabled: boolean;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  disableTotp: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          password: string;
          code: string;
        };
      };
    };
    responses: {
      /** @description Off */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            two_factor_enabled: boolean;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  sendResetCode: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
        };
      };
    };
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'sent_if_registered';
            detail: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  resetPassword: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          code: string;
          new_password: string;
        };
      };
    };
    responses: {
      /** @description Password changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'password_reset';
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  passkeyRegistrationOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Creation options */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listPasskeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Passkeys, oldest first */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            passkeys: components['schemas']['Passkey'][];
          };
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  registerPasskey: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          /** @description The credential as JSON (RegistrationResponseJSON or AuthenticationResponseJSON) */
          response: {
            id: string;
            /** @constant */
            type: 'public-key';
            response: {
              [key: string]: unknown;
            };
          } & {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description Registered */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Passkey'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  removePasskey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  renamePasskey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
        };
      };
    };
    responses: {
      /** @description Renamed */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Passkey'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  passkeyLoginOptions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          challenge?: string;
        };
      };
    };
    responses: {
      /** @description Request options */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  passkeyLogin: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          challenge?: string;
          /** @description The credential as JSON (RegistrationResponseJSON or AuthenticationResponseJSON) */
          response: {
            id: string;
            /** @constant */
            type: 'public-key';
            response: {
              [key: string]: unknown;
            };
          } & {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description A session */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  generateRecoveryCodes: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The codes */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            codes: string[];
          };
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSecurityStatus: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Status */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SecurityStatus'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCsrfToken: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Token */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            csrf: string;
          };
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listApiKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Keys, newest first */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            api_keys: components['schemas']['ApiKey'][];
          };
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createApiKey: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          /**
           * @description live (default): real, billed transactions; test: free, marked test, never listed with live data (prefix sgn_test_)
           * @enum {string}
           */
          mode?: 'live' | 'test';
          /** @description Default: every scope your role allows. A scope above your role is 403. */
          scopes?: ('read' | 'write' | 'admin')[];
          /**
           * Format: date-time
           * @description When the key stops working (refused with 401 from then on); absent: never
           */
          expires_at?: string;
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['ApiKeyCreated'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description csrf query parameter missing or invalid, or a role or scope above the caller’s */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  revokeApiKey: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Revoked */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description csrf query parameter missing or invalid, or a role or scope above the caller’s */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  updateAccountSettings: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Validity of new sessions in hours (default 24; 720 = 30 days) */
          session_ttl_hours?: number;
          /** @description Days the face video, frames and reference photo of transactions created from now on are kept after they end (the operator sets the maximum; an answer of 400 names it) */
          biometric_retention_days?: number;
          /** @description Days from creation to expiry of transactions created without expires_at (the operator sets the maximum) */
          expiry_days?: number;
          /** @description Hours from creation to the first automatic reminder */
          reminder_first_after_hours?: number;
          /** @description Hours between automatic reminders */
          reminder_every_hours?: number;
          /** @description Automatic reminders per transaction at most; 0: none */
          reminder_max?: number;
        };
      };
    };
    responses: {
      /** @description The settings now in force */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            session_ttl_hours: number;
            biometric_retention_days: number;
            expiry_days: number;
            reminder_first_after_hours: number;
            reminder_every_hours: number;
            reminder_max: number;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description csrf query parameter missing or invalid, or a role or scope above the caller’s */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getEmbedOrigins: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The allowed origins */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmbedOrigins'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  setEmbedOrigins: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Origins that may frame this account's signing pages, at most 10: https, or http only on localhost, 127.0.0.1 and [::1] (development). Empty: the pages may not be framed. */
          origins: string[];
        };
      };
    };
    responses: {
      /** @description The origins now allowed */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['EmbedOrigins'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description csrf query parameter missing or invalid */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getBranding: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The branding now */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Branding'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  setBranding: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['BrandingInput'];
      };
    };
    responses: {
      /** @description The branding now */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Branding'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  setBrandingLogo: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'image/png': string;
        'image/jpeg': string;
      };
    };
    responses: {
      /** @description The branding now */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Branding'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Error */
      415: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteBrandingLogo: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The branding now */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Branding'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getBrandingLogo: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        sha256: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The logo */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'image/png': string;
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listMembers: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Members (oldest first) and pending invitations (newest first) */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            members: components['schemas']['Member'][];
            invitations: components['schemas']['Invitation'][];
          };
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  inviteMember: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          email: string;
          /**
           * @description viewer reads; sender also creates and acts on transactions, templates and bulk sends; admin also manages API keys, webhooks, members (not owners), settings and branding; owner also billing and ownership
           * @enum {string}
           */
          role: 'viewer' | 'sender' | 'admin' | 'owner';
        };
      };
    };
    responses: {
      /** @description Invited */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Invitation'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  revokeInvitation: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Withdrawn */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  removeMember: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path: {
        user_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  changeMemberRole: {
    parameters: {
      query: {
        /** @description Token from GET /api/admin/csrf */
        csrf: string;
      };
      header?: never;
      path: {
        user_id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description viewer reads; sender also creates and acts on transactions, templates and bulk sends; admin also manages API keys, webhooks, members (not owners), settings and branding; owner also billing and ownership
           * @enum {string}
           */
          role: 'viewer' | 'sender' | 'admin' | 'owner';
        };
      };
    };
    responses: {
      /** @description The member now */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Member'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not allowed */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  acceptInvitation: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          code: string;
          name: string;
          password: string;
        };
      };
    };
    responses: {
      /** @description A session of the new member */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Session'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listAuditLog: {
    parameters: {
      query?: {
        /** @description Only entries of this actor (a user id) */
        actor_id?: string;
        /** @description An action (auth.login.failed) or a prefix ending in "." (auth.) */
        action?: string;
        /** @description Entries at or after this time */
        from?: string;
        /** @description Entries before this time */
        to?: string;
        /** @description Entries per page, 1-500 (default 50) */
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of entries */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['AuditEventPage'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  exportAuditLog: {
    parameters: {
      query?: {
        /** @description Only entries of this actor (a user id) */
        actor_id?: string;
        /** @description An action (auth.login.failed) or a prefix ending in "." (auth.) */
        action?: string;
        /** @description Entries at or after this time */
        from?: string;
        /** @description Entries before this time */
        to?: string;
        format?: 'csv' | 'json';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The entries */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description attachment; filename="audit-log.csv|json" */
          'Content-Disposition'?: string;
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
          'application/json': components['schemas']['AuditEvent'][];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The account */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Account'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCertificatePdf: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The certificate PDF */
      200: {
        headers: {
          /** @description private, no-store */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/pdf': string;
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getEvidenceBundle: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The bundle with the openings */
      200: {
        headers: {
          /** @description private, no-store */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CertificateBundle'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listTransactions: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
        status?: string;
        q?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of summaries */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description The cursor of the next page; absent on the last page */
          'X-Next-Cursor'?: string;
          /** @description RFC 8288 link to the next page (rel="next"), keeping the filter; absent on the last page */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionSummary'][];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createTransaction: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retrying with the same key and body answers the first result (Idempotent-Replayed: true) */
        'Idempotency-Key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** @description Full legal name (one-signer form; required there) */
          signer_name?: string;
          /**
           * Format: email
           * @description Receives the signing link (one-signer form; required there)
           */
          signer_email?: string;
          /**
           * @default signature
           * @enum {string}
           */
          attestation_type?: 'signature' | 'approval' | 'review' | 'consent';
          /** @description Comma-separated additional signers, up to 4, liveness only (one-signer form) */
          signer_emails?: string;
          /**
           * @description JSON array of parties (TransactionParty: name, email, role, order, verification, webauthn, required_assurance, locale), at most 10; instead of signer_name/signer_email/signer_emails/reference. Each face_match signer sends their reference photo as the part signer_photo_<index>, <index> being their position in this array (0-based). Every reference photo must show exactly one face.
           * @example [{"name":"Ada Lovelace","email":"ada@example.com","order":1},{"name":"Bob","email":"bob@example.com","order":2,"verification":"liveness_only"}]
           */
          signers?: string;
          /**
           * @description JSON array of fields placed on the document (FormFieldSpec), at most 200, each filled by one signer before the ceremony: type (signature, initials, date_signed, full_name, email, text, checkbox, dropdown), signer (position in signers, 0-based; the one-signer form: 0, then signer_emails), id (optional, unique), required (default true), readonly (needs value), label, value (prefilled: text, dropdown, checkbox), text: max_length (default 200, at most 1000), pattern (RE2 syntax, the whole value must match); dropdown: options. Where: page (1 = first), x, y, width, height in PDF points from the lower-left corner of the page as shown (crop box); or anchor: a text in the PDF (e.g. {{signature:signer1}}) — every occurrence places the field at the text, offset by offset_x/offset_y, sized by width/height (default: the text’s box). Refused with 400 and nothing stored: a field off its page, on a page that does not exist, overlapping a field of another signer, an anchor not found, a value that breaks its rules.
           * @example [{"id":"sig","type":"signature","signer":0,"page":1,"x":72,"y":100,"width":180,"height":50},{"type":"text","signer":1,"anchor":"{{company:signer2}}","width":150,"max_length":80}]
           */
          fields?: string;
          /**
           * @description One-signer form: the lowest assurance accepted from each of its signers — recorded, live (default) or live+webauthn (implies WebAuthn). A capture below it is refused before analysis and uses up its challenge; the single upload (GET …/challenge, POST …/capture) is accepted only with recorded. With signers, each party gives its own.
           * @enum {string}
           */
          required_assurance?: 'recorded' | 'live' | 'live+webauthn';
          /**
           * @description One-signer form: The language of the signing page and of the mails to this signer: en, de, fr, es, pl, pt, ar (right to left) or zh. Absent: the page follows the signer’s browser and mails are in English. The words read aloud stay English. With signers, each party gives its own locale.
           * @enum {string}
           */
          signer_locale?: 'en' | 'de' | 'fr' | 'es' | 'pl' | 'pt' | 'ar' | 'zh';
          /**
           * Format: binary
           * @description PDF, at most 200 MB, that the sealer can open: an encrypted, damaged or truncated PDF, or a %PDF- header without a version, is refused with 400 naming why. Its file name (filename or RFC 5987 filename*) is read as UTF-8.
           */
          document: string;
          /**
           * Format: binary
           * @description JPEG or PNG face photo showing exactly one face, at most 10 MB (one-signer form; required there)
           */
          reference?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[0] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_0?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[1] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_1?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[2] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_2?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[3] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_3?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[4] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_4?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[5] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_5?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[6] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_6?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[7] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_7?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[8] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_8?: string;
          /**
           * Format: binary
           * @description Reference face photo of signers[9] (JPEG or PNG, at most 10 MB, exactly one face)
           */
          signer_photo_9?: string;
          /**
           * Format: date-time
           * @description When the signing links stop working (RFC 3339 with a time zone); in the future, at most 180 days ahead. Default: the account’s expiry_days (30 days unless set)
           */
          expires_at?: string;
          /** @description First automatic reminder this long after creation (default: the account’s reminder schedule) */
          reminder_first_after_seconds?: string;
          /** @description Then a reminder this often */
          reminder_every_seconds?: string;
          /** @description At most this many reminders (0: none; at most 20) */
          reminder_max?: string;
        };
      };
    };
    responses: {
      /** @description Created; the signing links are mailed to the signers of the first order */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description true when this answers an earlier request with the same Idempotency-Key */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionCreated'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The monthly quota and the signature credits are exhausted */
      402: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  exportTransactions: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description CSV (RFC 4180), one transaction a line */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description attachment; filename="transactions.csv" */
          'Content-Disposition'?: string;
          [name: string]: unknown;
        };
        content: {
          'text/csv': string;
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTransaction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The transaction */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionDetail'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteTransaction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  resendTransaction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The summary after re-sending */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionSummary'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  cancelTransaction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The summary, cancelled */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionSummary'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  eraseTransactionBiometrics: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Erased, or already erased */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  setLegalHold: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['LegalHoldRequest'];
      };
    };
    responses: {
      /** @description The hold */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LegalHold'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  releaseLegalHold: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Released, or there was no hold */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  completeTestTransaction: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Transaction id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['TestCompletion'];
      };
    };
    responses: {
      /** @description The summary after completion */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionSummary'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSigningSummary: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The session */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SigningSummary'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSigningDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document */
      200: {
        headers: {
          /** @description private, no-store */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/pdf': string;
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  recordConsent: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          consent_text_version: string;
        };
      };
    };
    responses: {
      /** @description Consent recorded; the session */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SigningSummary'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  issueChallenge: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The challenge */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SigningChallenge'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  submitCapture: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** @description The challenge nonce; must come before the files */
          nonce: string;
          /**
           * Format: binary
           * @description WebM or MP4, at most 50 MB and 30 s
           */
          video: string;
          /**
           * Format: binary
           * @description The final frame, JPEG or PNG, at most 10 MB
           */
          frame: string;
        };
      };
    };
    responses: {
      /** @description Capture accepted */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CaptureReceipt'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  startLiveCapture: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Live challenge started */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LiveStart'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  appendLiveChunk: {
    parameters: {
      query?: {
        /** @description Segments shown since the last chunk, as segment:ms pairs (recording time), e.g. 3:3120,4:4105 */
        shown?: string;
      };
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
        /** @description The nonce of the live challenge */
        nonce: string;
        /** @description Chunk number: 0, 1, 2, ... */
        seq: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/octet-stream': string;
      };
    };
    responses: {
      /** @description Chunk stored; the next segment */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LiveAck'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  finishLiveCapture: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
        /** @description The nonce of the live challenge */
        nonce: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'image/jpeg': string;
        'image/png': string;
      };
    };
    responses: {
      /** @description Capture accepted */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CaptureReceipt'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  declineSigning: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description Why the signer declines (shown to the sender); at most 500 characters */
          reason?: string;
        };
      };
    };
    responses: {
      /** @description Declined */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SigningDeclined'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSigningFields: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The fields */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SignerFields'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  submitSigningFields: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description Values by field id: text and dropdown take a string, checkbox true or false
           * @default {}
           */
          values?: {
            [key: string]: string | boolean;
          };
          /** @description The signature every signature field of this signer shows */
          signature?: components['schemas']['SignatureMark'];
          /** @description The initials every initials field of this signer shows */
          initials?: components['schemas']['SignatureMark'];
        };
      };
    };
    responses: {
      /** @description Kept; the fields with their values */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['SignerFields'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebauthnOptions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The options */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description registration or authentication */
            kind: string;
            /** @description The options for navigator.credentials */
            options: {
              [key: string]: unknown;
            };
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  verifyWebauthn: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description The WebAuthn registration or assertion response */
          response: {
            [key: string]: unknown;
          };
        };
      };
    };
    responses: {
      /** @description The result */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            verified: boolean;
            kind: string;
            verification_mode: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  logForensicEvents: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description The signing token of the link /sign/{token} */
        token: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          events: {
            type: string;
            t: number;
            data?: {
              [key: string]: unknown;
            };
          }[];
        };
      };
    };
    responses: {
      /** @description Stored */
      202: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            batch: number;
            batches_left: number;
            received_at: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listWebhookEndpoints: {
    parameters: {
      query?: {
        /** @description Only endpoints of this mode (an API key sees only its own mode) */
        mode?: 'live' | 'test';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoints (without secrets) */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'][];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEndpointCreate'];
      };
    };
    responses: {
      /** @description Created; `secret` is shown only now */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpointWithSecret'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint (without its secret) */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  updateWebhookEndpoint: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookEndpointUpdate'];
      };
    };
    responses: {
      /** @description The endpoint as changed */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpoint'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  rollWebhookSecret: {
    parameters: {
      query?: {
        /** @description How long deliveries still carry the old secret’s signature beside the new one’s (default 86400, a day; at most 604800; 0: the old one stops at once) */
        overlap_seconds?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The endpoint with its new secret */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookEndpointWithSecret'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        limit?: number;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The deliveries */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'][];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  redeliverWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        delivery_id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Due now */
      202: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['WebhookDelivery'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below admin (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listTemplates: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of templates */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TemplateList'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'multipart/form-data': {
          /** @description The template’s name (1 to 200 characters) */
          name: string;
          /**
           * @description JSON array of roles (TemplateRole), 1 to 10
           * @example [{"name":"client"},{"name":"witness","order":2,"verification":"liveness_only"}]
           */
          roles: string;
          /**
           * @description JSON array of fields (TemplateField), at most 200, checked as a transaction’s: off the page, on a page that does not exist, overlapping a field of another role, an anchor not found → 400, nothing stored.
           * @example [{"id":"client_sig","type":"signature","role":"client","page":1,"x":72,"y":100,"width":180,"height":50},{"id":"company","type":"text","role":"client","anchor":"{{company}}","width":150}]
           */
          fields?: string;
          /**
           * Format: binary
           * @description PDF, at most 200 MB, that the sealer can open
           */
          document: string;
        };
      };
    };
    responses: {
      /** @description Created */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Template'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The template */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Template'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  updateTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          roles?: components['schemas']['TemplateRole'][];
          fields?: components['schemas']['TemplateField'][];
        };
      };
    };
    responses: {
      /** @description The template as changed */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Template'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTemplateDocument: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /** @description Template id */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The document */
      200: {
        headers: {
          /** @description private, no-store */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/pdf': string;
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createTransactionFromTemplate: {
    parameters: {
      query?: never;
      header?: {
        /** @description Retrying with the same key and body answers the first result (Idempotent-Replayed: true) */
        'Idempotency-Key'?: string;
      };
      path: {
        /** @description Template id */
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /** @description One signer per role of the template */
          signers: {
            role: string;
            name: string;
            /** Format: email */
            email: string;
            /**
             * Format: base64
             * @description The signer’s face photo (JPEG or PNG, at most 10 MB, exactly one face), base64; required for a face_match role
             */
            photo?: string;
          }[];
          /** @description Prefilled values by field id (text and dropdown: a string; checkbox: true or false) */
          values?: {
            [key: string]: string | boolean;
          };
          /** @description Default: the template’s */
          document_name?: string;
          /**
           * Format: date-time
           * @description When the signing links stop working (RFC 3339)
           */
          expires_at?: string;
          reminder_first_after_seconds?: number;
          reminder_every_seconds?: number;
          /** @description 0: no reminders */
          reminder_max?: number;
        };
      };
    };
    responses: {
      /** @description Created; the signing links are mailed to the signers of the first order */
      201: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description true when this answers an earlier request with the same Idempotency-Key */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['TransactionCreated'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The monthly quota and the signature credits are exhausted */
      402: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  createBulkJob: {
    parameters: {
      query?: never;
      header?: {
        'Idempotency-Key'?: string;
      };
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'text/csv': string;
        'application/json': components['schemas']['BulkUpload'];
      };
    };
    responses: {
      /** @description Accepted: the job, with each row pending or failed with its reason */
      202: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description The job: GET it for the progress */
          Location: string;
          /** @description true when this answers an earlier upload with the same Idempotency-Key */
          'Idempotent-Replayed'?: 'true';
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkJob'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The caller’s role is below sender (an API key: its scopes or its member’s role) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The resource is not in a state that allows this */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getBulkJob: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The job with each row (status, reason, the transaction made) */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkJob'];
        };
      };
      /** @description A path parameter is not valid percent-encoded UTF-8 */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listBulkJobs: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of jobs (without their rows) */
      200: {
        headers: {
          /** @description Always no-store: the answer carries tokens or personal data */
          'Cache-Control': string;
          /** @description The cursor of the next page; absent on the last page */
          'X-Next-Cursor'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['BulkJob'][];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getProofBundle: {
    parameters: {
      query: {
        /** @description The first 16 hexadecimal characters of the SHA-256 of the original document or of its signed PDF, or all 64 (then compared whole) */
        hash: string;
        /** @description 1: served as an attachment <reference>.cert.json */
        download?: '0' | '1';
      };
      header?: never;
      path: {
        /** @description The certificate reference */
        reference: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The bundle */
      200: {
        headers: {
          /** @description no-cache */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CertificateBundle'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getCheckpoint: {
    parameters: {
      query?: {
        /** @description test: the test log (test-mode certificates, its own key); default live */
        log?: 'live' | 'test';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The checkpoint */
      200: {
        headers: {
          /** @description no-cache */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Checkpoint'];
          'text/plain': string;
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getConsistencyProof: {
    parameters: {
      query: {
        from: string;
        /** @description Default: the current size */
        to?: string;
        /** @description test: the test log (test-mode certificates, its own key); default live */
        log?: 'live' | 'test';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The proof */
      200: {
        headers: {
          /** @description no-cache without to; public, max-age=3600 with it */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            from: number;
            to: number;
            from_root: string;
            to_root: string;
            proof: string[];
            from_checkpoint: string | null;
            to_checkpoint: string | null;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getLedgerPublicKey: {
    parameters: {
      query?: {
        /** @description test: the test log (test-mode certificates, its own key); default live */
        log?: 'live' | 'test';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key */
      200: {
        headers: {
          /** @description public, max-age=300 */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            origin: string;
            /** @example Ed25519 */
            algorithm: string;
            /** @description The current key (as before key rotation); every key is in keys */
            key_id: string;
            verifier_key: string;
            public_key: string;
            public_key_pem: string;
            /** @description Every key of the log, the current one first, then the retired ones with their periods: what a retired key signed keeps verifying. signet-verify --key takes this document as saved. */
            keys: {
              key_id: string;
              verifier_key: string;
              public_key: string;
              public_key_pem: string;
              /** @description Since when the key signs (RFC 3339); null: open */
              not_before: string | null;
              /** @description When the key stopped signing (RFC 3339); null for the current key */
              not_after: string | null;
              /** @description The key the log signs new checkpoints and seals with */
              current: boolean;
            }[];
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listLedgerCheckpoints: {
    parameters: {
      query?: {
        /** @description default 1 */
        from?: string;
        /** @description default: the current size */
        to?: string;
        /** @description default 100 */
        limit?: string;
        /** @description test: the test log (test-mode certificates); default live */
        log?: 'live' | 'test';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description A page of checkpoints */
      200: {
        headers: {
          /** @description public, max-age=60 for a closed range read to its end, else no-cache */
          'Cache-Control'?: string;
          /** @description RFC 8288 link to the next page (rel="next"), keeping the filter; absent on the last page */
          Link?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['CheckpointHistory'];
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not found (also for another owner’s resource) */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listLedgerKeys: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The keys */
      200: {
        headers: {
          /** @description public, max-age=300 */
          'Cache-Control'?: string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['LedgerKeys'];
          'text/plain': string;
        };
      };
      /** @description Internal error, with a correlation id */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  receivePaymentWebhook: {
    parameters: {
      query?: never;
      header: {
        /** @description Standard Webhooks message id */
        'webhook-id': string;
        /** @description Unix seconds of the signature */
        'webhook-timestamp': string;
        /** @description v1,<base64 HMAC-SHA256> signatures, space-separated */
        'webhook-signature': string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          [key: string]: unknown;
        };
      };
    };
    responses: {
      /** @description Verified and acknowledged (processed, duplicate, ignored or unmatched) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            received: boolean;
            /**
             * @example processed
             * @example duplicate
             * @example ignored
             * @example unmatched
             */
            result: string;
          };
        };
      };
      /** @description The request is malformed or a field is not valid */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Missing or invalid authentication */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description The body is too large */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Rate limited: wait Retry-After seconds */
      429: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not processed; the provider retries */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description A service is unavailable or busy: retry after Retry-After seconds */
      503: {
        headers: {
          /** @description Seconds to wait before trying again */
          'Retry-After': string;
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getSignedPdf: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signed PDF (the same bytes on every download) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/pdf': string;
        };
      };
      /** @description No or an invalid API key or session */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such transaction (or not the caller’s), or no such PDF */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not sealed yet */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getAuditTrailPdf: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: number;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The audit-trail PDF (stored once when the signed PDF is sealed: the same bytes on every download) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/pdf': string;
        };
      };
      /** @description No or an invalid API key or session */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such transaction (or not the caller’s), or no such PDF */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not sealed yet */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  downloadSignedPdf: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        token: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signed PDF (the same bytes the owner downloads) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/pdf': string;
        };
      };
      /** @description The download link has expired */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description No such download link, or no signed PDF for it */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description Not sealed yet */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
