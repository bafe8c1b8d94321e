import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

describe('content-platform-reference-server (bin)', () => {
  it('prints its URL and keys, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/testing/bin.ts', '--port', '0', '--flavor', 'spec'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          out += chunk;
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match?.[1] && out.includes('Purchase codes')) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
      });
      expect(out).toContain('(spec flavor)');
      expect(out).toContain('keys: test-mgmt-key-workspace-alpha, test-mgmt-key-workspace-beta');
      expect(out).toContain('keys: test-catalog-key-main, test-catalog-key-no-items');
      const res = await fetch(`${url}/api/v1/pixels/1`, {
        headers: { authorization: 'Bearer test-mgmt-key-workspace-alpha' },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).data.name).toBe('Facebook Main');
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 20_000);

  it('refuses an unknown flavor with exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/testing/bin.ts', '--flavor', 'xml'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(err).toContain('Usage: content-platform-reference-server');
  }, 20_000);
});
