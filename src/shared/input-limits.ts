/** The largest files and texts taken as input, the same in the CLI and the app. */

/** A CSV to import into the outbox: about 180,000 rows of removals (three ids of 27 characters each). */
export const CSV_IMPORT_MAX_BYTES = 16 * 1024 * 1024;
/** A JSON file of a change (`queue add update-template --file`, `create-campaign --file`). */
export const JSON_INPUT_MAX_BYTES = 1024 * 1024;
