import { describe, expect, it, vi } from 'vitest';
import {
  escapeControls,
  maskCode,
  redact,
  redactUrl,
  scrubber,
  withCodes,
} from '../../src/core/errors/redact.js';
import {
  consoleLogger,
  createLog,
  type LogFields,
  type Logger,
  logLine,
} from '../../src/core/transport/log.js';

describe('log', () => {
  const logger = () => ({ error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn() });

  it('passes lines at or above the level and drops the rest, each with its fields object', () => {
    const sink = logger();
    const log = createLog(sink, 'warn', scrubber('k'));
    log('error', 'e', { method: 'GET' });
    log('warn', 'w', { attempt: 2, status: undefined });
    log('info', 'i', {});
    log('debug', 'd', {});
    expect(sink.error).toHaveBeenCalledWith('[content-platform-sdk] e', { method: 'GET' });
    // Fields left undefined are dropped: a structured logger gets only what is known.
    expect(sink.warn).toHaveBeenCalledWith('[content-platform-sdk] w', { attempt: 2 });
    expect(Object.keys(sink.warn.mock.calls[0]?.[1] as object)).toEqual(['attempt']);
    expect(sink.info).not.toHaveBeenCalled();
    expect(sink.debug).not.toHaveBeenCalled();
  });

  it('drops a line whose logger throws, rejects or lacks the method: logging never throws', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const throwing = {
        ...logger(),
        warn: vi.fn(() => {
          throw new Error('sink down');
        }),
      };
      const rejecting = { ...logger(), warn: vi.fn(() => Promise.reject(new Error('async sink down'))) };
      const partial = { error: vi.fn() } as unknown as Parameters<typeof createLog>[0];
      for (const sink of [throwing, rejecting, partial]) {
        expect(createLog(sink, 'debug', scrubber('k'))('warn', 'w', {})).toBeUndefined();
      }
      expect(throwing.warn).toHaveBeenCalledTimes(1);
      expect(rejecting.warn).toHaveBeenCalledTimes(1);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('logs nothing at off', () => {
    const sink = logger();
    createLog(sink, 'off', scrubber('k'))('error', 'x', {});
    expect(sink.error).not.toHaveBeenCalled();
  });

  it('scrubs the key, raw and URL-encoded, from every line and every string field', () => {
    const sink = logger();
    createLog(sink, 'debug', scrubber('a+b/c'))('debug', 'key a+b/c and a%2Bb%2Fc', {
      url: 'https://x.test/?q=a%2Bb%2Fc',
      attempt: 1,
    });
    expect(sink.debug).toHaveBeenCalledWith('[content-platform-sdk] key *** and ***', {
      url: 'https://x.test/?q=***',
      attempt: 1,
    });
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

  it('masks a purchase code to its last four characters, by value and as a field of any body', () => {
    const code = '86781236-23d0-4b3c-7dfa-c1c147e0dece';
    expect(maskCode(code)).toBe('***dece');
    expect(maskCode('abcd')).toBe('***');
    const scrub = withCodes(scrubber('sekrit'), [code]);
    expect(scrub(`code ${code}, encoded ${encodeURIComponent(code)}`)).toBe('code ***dece, encoded ***dece');
    // A server may echo the code normalised (upper case): the field is masked whatever its value.
    expect(scrub('{"purchase_code":"ABCD-1234-WXYZ-9F3A","api_key":"sekrit"}')).toBe(
      '{"purchase_code":"***9F3A","api_key":"***"}',
    );
    expect(scrub('purchase_code=ABCD-1234-WXYZ-9F3A&x=1')).toBe('purchase_code=***9F3A&x=1');
  });
});

describe('escapeControls', () => {
  it('writes every C0 and C1 control, DEL, U+2028 and U+2029 as \\uXXXX text, and nothing else', () => {
    const controls = [
      ...Array.from({ length: 0x20 }, (_, i) => i),
      0x7f,
      ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i),
      0x2028,
      0x2029,
    ];
    for (const code of controls)
      expect(escapeControls(`a${String.fromCharCode(code)}b`)).toBe(
        `a\\u${code.toString(16).padStart(4, '0')}b`,
      );
    const plain = 'الخدمة غير متوفرة ~ é \u00a0 \u200f 😀 "quoted" \\u001b';
    expect(escapeControls(plain)).toBe(plain);
  });
});

describe('the default logger (the console)', () => {
  it('writes one line per record: `content-platform-sdk <level>: "<message>"`, then each field as name=value', () => {
    expect(
      logLine(
        'warn',
        '[content-platform-sdk] GET https://x.test/api/v1/pixels: retry 1 of 2 in 300 ms after HTTP 503',
        {
          method: 'GET',
          url: 'https://x.test/api/v1/pixels',
          attempt: 1,
          status: 503,
          retryInMs: 300,
          requestId: undefined,
        },
      ),
    ).toBe(
      'content-platform-sdk warn: "GET https://x.test/api/v1/pixels: retry 1 of 2 in 300 ms after HTTP 503" ' +
        'method=GET url=https://x.test/api/v1/pixels attempt=1 status=503 retryInMs=300',
    );
  });

  it('quotes a value with spaces, quotes or control characters, and an empty one; a message stays one line', () => {
    expect(
      logLine('info', 'a\nmulti-line\r\n  message', {
        error: 'connect ECONNREFUSED 127.0.0.1:9',
        id: 'a=b',
        quote: 'say "hi"',
        tab: 'a\tb',
        empty: '',
        plain: 'req-1',
      }),
    ).toBe(
      'content-platform-sdk info: "a multi-line message" error="connect ECONNREFUSED 127.0.0.1:9" id=a=b ' +
        'quote="say \\"hi\\"" tab="a\\tb" empty="" plain=req-1',
    );
  });

  it('quotes the message, so a server phrase shaped like fields forges none', () => {
    expect(
      logLine(
        'info',
        'call failed: GET https://x.test/p failed with 503 Busy status=200 url=https://evil.example/ok',
        {
          url: 'https://x.test/p',
          status: 503,
        },
      ),
    ).toBe(
      'content-platform-sdk info: "call failed: GET https://x.test/p failed with 503 Busy status=200 ' +
        'url=https://evil.example/ok" url=https://x.test/p status=503',
    );
    // A quote or backslash in the message cannot end it early either.
    expect(logLine('warn', 'a\\" status=200 x="', {})).toBe(
      'content-platform-sdk warn: "a\\\\\\" status=200 x=\\""',
    );
  });

  it('leaves no control character raw in the message or a field: C0, DEL, C1, U+2028 and U+2029', () => {
    const line = logLine('info', 'Busy \x1b[31m\x07\b\x7f\x85\x9b\u2028\u2029 end', {
      requestId: 'id\x1b[2J\x85',
      other: 'a\u2028b',
    });
    expect(line).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(line).toBe(
      // NEL, U+2028 and U+2029 end lines: the message is joined into one there, as at CR and LF.
      'content-platform-sdk info: "Busy \\u001b[31m\\u0007\\b\\u007f \\u009b end" ' +
        'requestId="id\\u001b[2J\\u0085" other="a\\u2028b"',
    );
  });

  it('hands every logger its message and text fields with control characters escaped (`\\u001b` text)', () => {
    const seen: unknown[][] = [];
    const keep = (...args: unknown[]) => void seen.push(args);
    const log = createLog(
      { error: keep, warn: keep, info: keep, debug: keep },
      'info',
      scrubber('s3cr3t-key'),
    );
    log('info', 'phrase \x1b]0;title\x07 s3cr3t-key', { requestId: 'r\x1b\u2028', status: 503 });
    expect(seen).toEqual([
      [
        '[content-platform-sdk] phrase \\u001b]0;title\\u0007 ***',
        { requestId: 'r\\u001b\\u2028', status: 503 },
      ],
    ]);
  });

  it('sends each level to the console method of its name, as one string, the key masked', () => {
    const spies = (['error', 'warn', 'info', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation(() => {}),
    );
    const log = createLog(consoleLogger, 'debug', scrubber('s3cr3t-key'));
    for (const level of ['error', 'warn', 'info', 'debug'] as const)
      log(level, `${level} with s3cr3t-key`, {
        url: 'https://x.test/api/items/all?api_key=s3cr3t-key',
        attempt: 1,
      });
    const written = spies.map((spy) => spy.mock.calls);
    for (const spy of spies) spy.mockClear();
    expect(written).toEqual(
      (['error', 'warn', 'info', 'debug'] as const).map((level) => [
        [
          `content-platform-sdk ${level}: "${level} with ***" url=https://x.test/api/items/all?api_key=*** attempt=1`,
        ],
      ]),
    );
  });

  it("types a logger's methods as (message, fields?): an adapter needs no cast, and pino, winston and console fit", () => {
    // pino's LogFn and winston's LeveledLogMethod, as their own declarations type them (pino.d.ts, winston's index.d.ts).
    interface PinoLogFn {
      // biome-ignore lint/suspicious/noExplicitAny: verbatim from pino.d.ts
      <T extends object>(obj: T, msg?: string, ...args: any[]): void;
      // biome-ignore lint/suspicious/noExplicitAny: verbatim from pino.d.ts
      (obj: unknown, msg?: string, ...args: any[]): void;
      // biome-ignore lint/suspicious/noExplicitAny: verbatim from pino.d.ts
      (msg: string, ...args: any[]): void;
    }
    interface WinstonLeveledLogMethod {
      // biome-ignore lint/suspicious/noExplicitAny: verbatim from winston's index.d.ts
      (message: string, ...meta: any[]): unknown;
      // biome-ignore lint/suspicious/noExplicitAny: verbatim from winston's index.d.ts
      (message: any): unknown;
      (infoObject: object): unknown;
    }
    const records: unknown[][] = [];
    const pinoFn = ((...args: unknown[]) => records.push(args)) as PinoLogFn;
    const pino = { error: pinoFn, warn: pinoFn, info: pinoFn, debug: pinoFn };
    const winstonFn = ((...args: unknown[]) => records.push(args)) as WinstonLeveledLogMethod;
    const winston = { error: winstonFn, warn: winstonFn, info: winstonFn, debug: winstonFn };
    // Each of these is checked by `npm run typecheck`: none needs a cast.
    const asIs: Logger[] = [pino, winston, console];
    const adapted: Logger = {
      error: (msg, fields) => pino.error({ ...fields, msg }),
      warn: (msg, fields) => pino.warn(fields, msg),
      info: (msg, fields: LogFields | undefined) => pino.info({ ...fields }, msg),
      debug: (msg, fields) => pino.debug({ ...fields, msg }),
    };
    createLog(adapted, 'debug', scrubber('k'))('warn', 'retrying', { attempt: 2, status: 503 });
    createLog(adapted, 'debug', scrubber('k'))('error', 'failed', { attempt: 1 });
    expect(records).toEqual([
      [{ attempt: 2, status: 503 }, '[content-platform-sdk] retrying'],
      [{ attempt: 1, msg: '[content-platform-sdk] failed' }],
    ]);
    expect(asIs).toHaveLength(3);
  });
});
