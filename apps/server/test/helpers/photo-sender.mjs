// node photo-sender.mjs PORT PHOTO ROUNDS CONCURRENCY: uploads PHOTO as the site does (a form with
// the file, its length known), CONCURRENCY at a time for ROUNDS rounds; prints how many calls got
// each outcome ("503 1": the status and Retry-After; or why the call failed, e.g. EPIPE).
import { readFileSync } from 'node:fs';

const [port, photoPath, rounds, concurrency] = process.argv.slice(2);
const photo = readFileSync(photoPath);
const outcomes = {};
for (let round = 0; round < Number(rounds); round++) {
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      const form = new FormData();
      form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
      let outcome;
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/uploadPhoto`, { method: 'POST', body: form });
        await res.arrayBuffer();
        outcome = `${res.status} ${res.headers.get('retry-after')}`;
      } catch (err) {
        outcome = err.cause?.code ?? err.cause?.message ?? String(err);
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }),
  );
}
process.stdout.write(JSON.stringify(outcomes));
