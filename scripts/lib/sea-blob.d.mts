// The shape of scripts/lib/sea-blob.mjs that test/exe/sea-blob.test.ts reads.
export function withoutBuiltinCodeCache(
  blob: Buffer,
  mainPath: string,
  drop: (id: string) => boolean,
): { blob: Buffer; dropped: number; kept: number; bytes: number; error?: undefined } | { error: string; blob?: undefined; dropped?: undefined; kept?: undefined; bytes?: undefined };
