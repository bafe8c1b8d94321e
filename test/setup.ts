// Each test file starts msw itself (test/helpers/msw.ts), so files that talk to a real loopback
// server are not intercepted. Nothing global is installed here on purpose.
export {};
