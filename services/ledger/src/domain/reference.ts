/** A certificate reference: <PREFIX>-TX-<8 digits>, the prefix 2–8 upper-case letters or digits. */
export const REFERENCE_PATTERN = /^[A-Z0-9]{2,8}-TX-\d{8}$/;
/** The first 16 characters of a document SHA-256, lower-case hex. */
export const HASH_PREFIX_PATTERN = /^[0-9a-f]{16}$/;
