import { exchangeSsoCode, fieldErrorsOf, isApiError } from './account';
import { createApiClient } from './client';
import { ApiError } from './api-error';

describe('isApiError', () => {
  it('when the error is this copy’s ApiError or another bundle’s (same name and a status), then it is one', () => {
    expect(isApiError(new ApiError('/a', 400, 'Bad Request', {}))).toBe(true);
    class ForeignApiError extends Error {
      override readonly name = 'ApiError';
      readonly status = 401;
    }
    expect(isApiError(new ForeignApiError('Unauthorized'))).toBe(true);
  });

  it('when the error is anything else, then it is not', () => {
    expect(isApiError(new Error('boom'))).toBe(false);
    expect(isApiError({ name: 'ApiError', status: 400 })).toBe(false);
    expect(isApiError(undefined)).toBe(false);
  });
});

describe('fieldErrorsOf', () => {
  it('when a 400 answer names fields, then their messages come back by field path', () => {
    const refused = new ApiError('/a', 400, 'Bad Request', { message: 'Bad Request', errors: { name: ['Required'] } });
    expect(fieldErrorsOf(refused)).toEqual({ name: ['Required'] });
  });

  it('when the answer is another status, has no errors, or is no answer, then there are none', () => {
    expect(fieldErrorsOf(new ApiError('/a', 409, 'Conflict', { errors: { name: ['Taken'] } }))).toBeUndefined();
    expect(fieldErrorsOf(new ApiError('/a', 400, 'Bad Request', { message: 'Bad Request' }))).toBeUndefined();
    expect(fieldErrorsOf(new ApiError('/a', 400, 'Bad Request', undefined))).toBeUndefined();
    expect(fieldErrorsOf(new TypeError('Network error'))).toBeUndefined();
  });
});

describe('exchangeSsoCode', () => {
  afterEach(() => jest.restoreAllMocks());

  it('when the SSO code is redeemed, then the browser’s cookies go with it (the SSO nonce), unlike every other call', async () => {
    const fetchMock = jest
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response('{"token":"t"}', { headers: { 'content-type': 'application/json' } }));
    await exchangeSsoCode(createApiClient(), 'the-code');
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/account/company/sso/token',
      expect.objectContaining({ method: 'POST', body: '{"code":"the-code"}', credentials: 'same-origin' }),
    );
  });
});
