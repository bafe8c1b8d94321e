import { describe, expect, it, vi } from 'vitest';
import { createLog, redact, redactUrl } from '../../src/core/log.js';

describe('log', () => {
  const logger = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() });

  it('passes lines at or above the level and drops the rest', () => {
    const sink = logger();
    const log = createLog(sink, 'warn', 'k');
    log('error', 'e');
    log('warn', 'w');
    log('info', 'i');
    log('debug', 'd');
    expect(sink.error).toHaveBeenCalledWith('[content-platform-sdk] e');
    expect(sink.warn).toHaveBeenCalledWith('[content-platform-sdk] w');
    expect(sink.info).not.toHaveBeenCalled();
    expect(sink.debug).not.toHaveBeenCalled();
  });

  it('logs nothing at off', () => {
    const sink = logger();
    createLog(sink, 'off', 'k')('error', 'x');
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('scrubs the key, raw and URL-encoded, from every line', () => {
    const sink = logger();
    createLog(sink, 'debug', 'a+b/c')('debug', 'key a+b/c and a%2Bb%2Fc');
    expect(sink.debug).toHaveBeenCalledWith('[content-platform-sdk] key *** and ***');
    expect(redact('nothing here', '')).toBe('nothing here');
  });

  it('masks api_key in URLs', () => {
    expect(redactUrl('https://x.test/api/items/item?item_id=1&api_key=s3cr3t&z=1')).toBe(
      'https://x.test/api/items/item?item_id=1&api_key=***&z=1',
    );
    expect(redactUrl('https://x.test/api/items/all?API_KEY=s')).toBe(
      'https://x.test/api/items/all?API_KEY=***',
    );
  });
});
