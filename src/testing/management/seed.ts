/** The seeded Management keys: two workspaces with records and one empty workspace. */
export const SEED_MANAGEMENT_KEYS = [
  'test-mgmt-key-workspace-alpha',
  'test-mgmt-key-workspace-beta',
  'test-mgmt-key-workspace-empty',
] as const;

/** A pixel to seed, without its id or timestamps. */
export interface PixelSeed {
  name: string;
  type: string;
  value: string;
}

/** A domain to seed, without its id or timestamps. */
export interface DomainSeed {
  name: string;
  index_page?: string | null;
  not_found_page?: string | null;
}

/** The first workspace's twelve pixels: more than one default page (10), every type at least once. */
export const ALPHA_PIXELS: readonly PixelSeed[] = [
  { name: 'Facebook Main', type: 'facebook', value: '1234567890123456' },
  { name: 'Google Ads Search', type: 'google-ads', value: 'AW-123456789' },
  { name: 'Analytics Site', type: 'google-analytics', value: 'G-ABC123DEF4' },
  { name: 'Tag Manager', type: 'google-tag-manager', value: 'GTM-K9X2ZQ' },
  { name: 'LinkedIn Insight', type: 'linkedin', value: '512345' },
  { name: 'Pinterest Tag', type: 'pinterest', value: '2612345678901' },
  { name: 'Quora Pixel', type: 'quora', value: 'a1b2c3d4e5f6' },
  { name: 'X Conversions', type: 'x', value: 'o1a2b' },
  { name: 'Bing UET', type: 'bing', value: '187000123' },
  { name: 'AdRoll Retarget', type: 'adroll', value: 'ADV123:PIX456' },
  { name: 'facebook retargeting', type: 'facebook', value: '6543210987654321' },
  { name: 'Zeta Campaign', type: 'google-ads', value: 'AW-987654321' },
];

/** The first workspace's domains. */
export const ALPHA_DOMAINS: readonly DomainSeed[] = [
  { name: 'links.example.com', index_page: 'https://example.com', not_found_page: 'https://example.com/404' },
  { name: 'go.example.org', index_page: 'https://example.org' },
  { name: 'short.example.net' },
];

/** The second workspace's records, invisible to the first. */
export const BETA_PIXELS: readonly PixelSeed[] = [
  { name: 'Beta Facebook', type: 'facebook', value: '1111111111' },
  { name: 'Beta Bing', type: 'bing', value: '2222222222' },
];

/** The second workspace's domain. */
export const BETA_DOMAINS: readonly DomainSeed[] = [
  { name: 'beta.example.io', index_page: 'https://beta.io' },
];

/** `count` generated pixels (for paging and benchmarks), cycling through the types. */
export function generatedPixels(count: number, types: readonly string[]): PixelSeed[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Generated Pixel ${String(i + 1).padStart(4, '0')}`,
    type: types[i % types.length] ?? 'facebook',
    value: `GEN-${100000 + i}`,
  }));
}

/** `count` generated domains. */
export function generatedDomains(count: number): DomainSeed[] {
  return Array.from({ length: count }, (_, i) => ({ name: `gen${i + 1}.example.test` }));
}
