import { fromStatesOf, SEATED_STATUSES, type ApplicationStatus } from '../registration/lifecycle';

/**
 * Reminders before a deadline (issue 34, decision 038): one message (and SMS) per application and
 * kind, `REMINDER_HOURS` before the deadline, only in office hours. Whom each kind reaches comes
 * from the lifecycle machine, never from status literals (decision 024).
 */
export const REMINDER_KINDS = ['deadline_submit', 'deadline_pay', 'ticket_print', 'switch_window'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const REMINDER_KIND_LABEL: Readonly<Record<ReminderKind, string>> = {
  deadline_submit: '报名截止提醒',
  deadline_pay: '确认缴费截止提醒',
  ticket_print: '准考证打印提醒',
  switch_window: '改报截止提醒',
};

/** What the console's exam settings explain beside each switch. */
export const REMINDER_KIND_HINT: Readonly<Record<ReminderKind, string>> = {
  deadline_submit: '报名截止前，提醒尚未提交（或退回后未重新提交）报名的考生',
  deadline_pay: '确认截止前，提醒审核通过但尚未缴费确认的考生',
  ticket_print: '第一科开考前，提醒尚未下载准考证的考生',
  switch_window: '改报截止前，提醒所报岗位已取消且尚未改报的考生',
};

/** Reminders go out only while the office's wall clock shows [08:00, 21:00): nobody is woken at 3 a.m. */
export const REMINDER_QUIET = { fromHour: 8, toHour: 21 } as const;

/** Whether the office's wall-clock hour (0–23) is one in which reminders may go out. */
export const reminderHourOpen = (hour: number): boolean => hour >= REMINDER_QUIET.fromHour && hour < REMINDER_QUIET.toHour;

/**
 * Who has not yet done what the deadline asks: the statuses from which the awaited step still
 * leads away. Before registration closes: those who may still submit (a draft, or a form sent
 * back); before confirmation closes: those the deadline would expire; before the switch window
 * closes: those the close-out would cancel (on a cancelled position); before the first paper:
 * those seated (and, in the query, holding a published ticket not yet downloaded).
 */
export const REMINDER_STATUSES: Readonly<Record<ReminderKind, readonly ApplicationStatus[]>> = {
  deadline_submit: [...new Set([...fromStatesOf('submit'), ...fromStatesOf('resubmit')])],
  deadline_pay: fromStatesOf('expire'),
  ticket_print: SEATED_STATUSES,
  switch_window: fromStatesOf('closeOut'),
};
