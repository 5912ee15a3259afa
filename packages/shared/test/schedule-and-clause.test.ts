import { describe, expect, it } from 'vitest';
import { scheduleChanges, type ScheduleWindows } from '../src/content/exams';
import { clause, MESSAGE_TEMPLATES } from '../src/messages/notifications';

const BEFORE: ScheduleWindows = {
  registrationStart: '2026-12-01T01:00:00.000Z',
  registrationEnd: '2026-12-07T09:00:00.000Z',
  reviewStart: '2026-12-01T01:00:00.000Z',
  reviewEnd: '2026-12-09T09:00:00.000Z',
  confirmationStart: '2026-12-10T01:00:00.000Z',
  confirmationEnd: '2026-12-12T09:00:00.000Z',
  switchStart: null,
  switchEnd: null,
};

describe('scheduleChanges: what a console save of an exam changes, as candidates are told it', () => {
  it('names each changed window once, old → new, in the office’s wall clock', () => {
    expect(scheduleChanges(BEFORE, { ...BEFORE }, 'Asia/Shanghai')).toEqual([]);
    const after = { ...BEFORE, registrationEnd: '2026-11-27T12:06:00.000Z', confirmationEnd: '2026-12-12T12:10:00.000Z' };
    expect(scheduleChanges(BEFORE, after, 'Asia/Shanghai')).toEqual([
      '报名时间由 2026-12-01 09:00 至 2026-12-07 17:00 改为 2026-12-01 09:00 至 2026-11-27 20:06',
      '报名确认时间由 2026-12-10 09:00 至 2026-12-12 17:00 改为 2026-12-10 09:00 至 2026-12-12 20:10',
    ]);
    // Another office's clock, another wall time for the same instants.
    expect(scheduleChanges(BEFORE, after, 'Asia/Urumqi')[0]).toBe(
      '报名时间由 2026-12-01 07:00 至 2026-12-07 15:00 改为 2026-12-01 07:00 至 2026-11-27 18:06',
    );
  });

  it('a switch window set for the first time is a change from 未设置', () => {
    const after = { ...BEFORE, switchStart: '2026-12-13T01:00:00.000Z', switchEnd: '2026-12-14T09:00:00.000Z' };
    expect(scheduleChanges(BEFORE, after, 'Asia/Shanghai')).toEqual(['改报时间由 未设置 改为 2026-12-13 09:00 至 2026-12-14 17:00']);
  });
});

describe('clause: typed text in the middle of a message', () => {
  it('drops the closing marks a writer typed, nothing else', () => {
    expect(clause('照片不清晰。')).toBe('照片不清晰');
    expect(clause(' 毕业时间与证书不一致，应为2021-06。。 ')).toBe('毕业时间与证书不一致，应为2021-06');
    expect(clause('学历不符；')).toBe('学历不符');
    expect(clause('版本 2.0 不符')).toBe('版本 2.0 不符');
    expect(clause(undefined)).toBe('');
  });

  it('no template doubles the full stop after a reason that has one', () => {
    const p = { exam: '某考试', detail: '照片不符合要求。', until: '2026-12-12 17:00', note: '已缴报名费将原路退还。' };
    for (const [kind, t] of Object.entries(MESSAGE_TEMPLATES)) {
      if (kind === 'announcement') continue;
      expect(t.content(p), kind).not.toMatch(/[。，；][。，；]/);
    }
  });
});
