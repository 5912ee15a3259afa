import type { Exam } from '@zhikaoyun/shared';
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentExamBanner } from '../src/components/CurrentExamBanner';
import { examKeys } from '../src/lib/api/keys';
import { Hydrating, ServerRendered } from '../src/lib/hydrated';
import { seedPublicQueries } from '../src/lib/public-query';

// React's act() outside Testing Library's render.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const DAY = 86_400_000;
const iso = (days: number) => new Date(Date.now() + days * DAY).toISOString();

const exam = {
  id: 7,
  name: '2026 年市直事业单位公开招聘',
  phase: 'registering',
  registrationStart: iso(-2),
  registrationEnd: iso(5),
  reviewStart: iso(-2),
  reviewEnd: iso(7),
  confirmationStart: iso(8),
  confirmationEnd: iso(10),
} as Exam;

const page = (
  <MemoryRouter>
    <CurrentExamBanner />
  </MemoryRouter>
);
// As entry-server.tsx renders it, and main.tsx hydrates it.
const onServer = <ServerRendered>{page}</ServerRendered>;
const hydrating = <Hydrating>{page}</Hydrating>;

describe('the guide page’s current exam card', () => {
  afterEach(() => {
    seedPublicQueries([]);
    document.body.innerHTML = '';
  });

  it('is in the server HTML with its name and windows, the countdown left to the browser, and hydrates without a mismatch', async () => {
    seedPublicQueries([[examKeys.current(), exam]]);
    const html = renderToString(onServer);
    expect(html).toContain(exam.name);
    expect(html).toContain('报名时间：');
    expect(html).toContain('href="/job-positions-only-read"');
    // Nothing that follows the clock: the HTML is kept until staff change something.
    expect(html).not.toContain('距报名截止');
    expect(html).toMatch(/<p class="deadline deadline--pending" aria-hidden="true">/);

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(container, hydrating, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(container.querySelector('.deadline')?.textContent).toMatch(
      /^ 报名截止：\d{4}-\d{2}-\d{2} \d{2}:\d{2}（剩余 \d+ 天 \d{2}:\d{2}:\d{2}）$/,
    );
    expect(container.querySelector('.home-current-exam__name')?.textContent).toBe(exam.name);
  });

  it('draws the phase from the browser’s clock, not the one the page was rendered with', async () => {
    // Rendered while registration was open; by now it has closed: no countdown.
    const closed = { ...exam, registrationStart: iso(-9), registrationEnd: iso(-1) };
    seedPublicQueries([[examKeys.current(), closed]]);
    const container = document.createElement('div');
    container.innerHTML = renderToString(onServer);
    document.body.append(container);
    await act(async () => {
      hydrateRoot(container, hydrating);
    });
    expect(container.querySelector('.deadline')).toBeNull();
    expect(container.textContent).toContain(exam.name);
  });
});
