import { CalendarOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { downloadExamCalendar } from '../lib/api/calendar';

/**
 * 加入日历: the candidate's deadlines and papers of the exam as a calendar file the phone's
 * calendar opens (each with a reminder the day before).
 */
export function AddToCalendarButton({ exam, block = true }: { exam: { id: number; name: string }; block?: boolean }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await downloadExamCalendar(exam.id, exam.name);
      void message.success('日程文件已下载，打开后即可加入手机日历（截止和考试前一天提醒）');
    } catch (err) {
      void message.error(err instanceof Error ? err.message : '下载失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="large" block={block} icon={<CalendarOutlined aria-hidden />} loading={busy} onClick={() => void save()}>
      加入日历
    </Button>
  );
}
