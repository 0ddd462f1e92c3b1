import { expect } from 'vitest';
import { ApiError } from '../../src/main/api/errors';

/** Awaits a call that must fail with an ApiError, and returns the error for closer checks. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}
