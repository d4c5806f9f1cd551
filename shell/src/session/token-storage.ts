/** Spec §4/§9: the session token lives in localStorage under 'token' (and nothing else of the session does). */
export const TOKEN_STORAGE_KEY = 'token';

export const readToken = (storage: Storage = window.localStorage) => storage.getItem(TOKEN_STORAGE_KEY);
export const writeToken = (token: string, storage: Storage = window.localStorage) =>
  storage.setItem(TOKEN_STORAGE_KEY, token);
export const clearToken = (storage: Storage = window.localStorage) => storage.removeItem(TOKEN_STORAGE_KEY);
