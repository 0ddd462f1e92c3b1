/**
 * A report asked for with parameters that cannot work (a filter no column has, a run that is not
 * a completed sync run...): the caller's input, not a failure of the export. The CLI exits 2 on
 * it; the app answers bad_request.
 */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
}
