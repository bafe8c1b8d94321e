// TypeScript consumer compiled as CommonJS (a .cts file under `nodenext`): `require` resolves the
// package's `require` condition, so this checks the shipped .d.cts declarations.
import sdk = require('content-platform-sdk');
import testing = require('content-platform-sdk/testing');

async function walk(server: testing.ReferenceServer, baseUrl: string): Promise<sdk.Pixel[]> {
  const mgmt = new sdk.ManagementClient({ baseUrl, apiKey: server.keys.management[0]! });
  const first: sdk.Page<sdk.Pixel> = await mgmt.pixels.list({ per_page: 25 });
  const all: sdk.Pixel[] = [...first.data];
  for await (const pixel of mgmt.pixels.list({ per_page: 100 })) all.push(pixel);
  try {
    await new sdk.CatalogClient({ siteUrl: baseUrl, apiKey: 'wrong' }).items.list();
  } catch (error) {
    if (error instanceof sdk.CatalogError) console.log(error.code satisfies sdk.CatalogErrorCode);
    else if (!(error instanceof sdk.ContentPlatformError)) throw error;
  }
  return all;
}

void walk;
