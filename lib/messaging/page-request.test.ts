import { describe, expect, it } from 'vitest';
import { ADD_PAGE_REQUEST_TTL_MS, freshAddPageRequest } from './page-request';

describe('the Add this page menu hand-over', () => {
  it('takes a fresh, well-formed request only', () => {
    expect(freshAddPageRequest({ tabId: 5, at: 1000 }, 1500)).toEqual({ tabId: 5, at: 1000 });
    expect(freshAddPageRequest({ tabId: 5, at: 1000 }, 1000 + ADD_PAGE_REQUEST_TTL_MS + 1)).toBeUndefined();
    expect(freshAddPageRequest({ tabId: 5, at: 2000 }, 1000)).toBeUndefined();
    expect(freshAddPageRequest({ tabId: '5', at: 1000 }, 1000)).toBeUndefined();
    expect(freshAddPageRequest({ tabId: 1.5, at: 1000 }, 1000)).toBeUndefined();
    expect(freshAddPageRequest(undefined, 1000)).toBeUndefined();
  });
});
