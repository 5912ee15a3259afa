import type { ArrangementOverview, ArrangeSeatsResult } from '@zhikaoyun/shared';
import { Alert, App, Button, Card, DatePicker, Input, Popconfirm, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { fromOfficePickerValue, officeNowPickerValue, toOfficePickerValue } from '../../../../components/console/office-time';
import { useArrangeLateSeats, useArrangeSeats, usePublishTickets } from './api';

/**
 * 编排与发布: the seat arrangement with an optional seed, the late arrangement of those confirmed
 * after publishing, and publishing the tickets with a print window.
 */
export function SeatingCard({ examId, o }: { examId: number | undefined; o: ArrangementOverview | undefined }) {
  const { message } = App.useApp();
  const arrange = useArrangeSeats();
  const arrangeLate = useArrangeLateSeats();
  const publish = usePublishTickets();
  const [seed, setSeed] = useState('');
  const [arranged, setArranged] = useState<(ArrangeSeatsResult & { seed: string }) | null>(null);
  const [printWindow, setPrintWindow] = useState<[Dayjs, Dayjs] | null>(null);
  const published = o?.ticketsPublishedAt != null;
  // Confirmed candidates without a seat get no ticket: said before publishing, in so many words.
  const unseatedNotes = o
    ? [o.awaitingSwitchNote, o.unseated > 0 ? `另有 ${o.unseated} 名已确认考生在编排之后确认或改报，尚未编排，请重新编排` : null].filter(
        (n): n is string => n !== null,
      )
    : [];
  const window: [Dayjs, Dayjs] =
    printWindow ??
    (o?.printStart && o.printEnd
      ? [toOfficePickerValue(o.printStart), toOfficePickerValue(o.printEnd)]
      : [officeNowPickerValue().startOf('hour'), officeNowPickerValue().add(7, 'day').startOf('day').hour(17)]);

  const onArrange = () => {
    if (examId === undefined) return;
    void arrange
      .mutateAsync({ examId, ...(seed.trim() ? { seed: seed.trim() } : {}) })
      .then((r) => {
        setArranged({ ...r, seed: seed.trim() });
        void message.success(`已编排 ${r.arranged} 人`);
      })
      .catch(() => undefined);
  };
  const onArrangeLate = () => {
    if (examId === undefined) return;
    void arrangeLate
      .mutateAsync({ examId })
      .then((r) => {
        const rest = r.unplaced > 0 ? `；另有 ${r.unplaced} 人座位不足，未补排` : '';
        if (r.unplaced > 0) void message.warning(`已补排 ${r.arranged} 人并生成准考证号${rest}`);
        else void message.success(`已补排 ${r.arranged} 人并生成准考证号`);
      })
      .catch(() => undefined);
  };
  const onPublish = () => {
    if (examId === undefined) return;
    void publish
      .mutateAsync({ examId, printStart: fromOfficePickerValue(window[0]), printEnd: fromOfficePickerValue(window[1]) })
      .then((r) => {
        setPrintWindow(null);
        void message.success(r.issued > 0 ? `准考证已发布：生成 ${r.issued} 张` : '打印时间已更新');
      })
      .catch(() => undefined);
  };

  return (
    <Card size="small" title="编排与发布">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap>
          <span>随机种子</span>
          <Input
            aria-label="随机种子"
            placeholder="选填：相同种子、相同考生与考场，结果相同"
            value={seed}
            maxLength={64}
            onChange={(e) => setSeed(e.target.value)}
            style={{ width: 320 }}
            disabled={published}
          />
          <Popconfirm
            title="编排座位？"
            description="将重新安排全部已确认考生的座位（覆盖上次编排）。"
            okText="编排"
            cancelText="返回"
            onConfirm={onArrange}
            disabled={examId === undefined || published}
          >
            <Button type="primary" loading={arrange.isPending} disabled={examId === undefined || published}>
              编排座位
            </Button>
          </Popconfirm>
          {published && <span className="console-hint">准考证已发布，编排已固定；个别考生可单独调动座位。</span>}
        </Space>
        {published && o.awaitingSwitchNote && <Alert type="warning" showIcon title={o.awaitingSwitchNote} />}
        {published && o.unseated > 0 && (
          <Alert
            type="warning"
            showIcon
            title={`有 ${o.unseated} 名已确认考生还没有座位（准考证发布后确认或改报）`}
            description="补排只给他们安排空座位（各科目同一座位）并生成准考证号，其他考生的座位和准考证号不变。"
            action={
              <Popconfirm
                title="补排座位？"
                description={`为 ${o.unseated} 名考生补排座位并生成准考证号。`}
                okText="补排"
                cancelText="返回"
                onConfirm={onArrangeLate}
              >
                <Button type="primary" loading={arrangeLate.isPending}>
                  补排座位
                </Button>
              </Popconfirm>
            }
          />
        )}
        {arranged && (
          <Alert
            type="success"
            showIcon
            title={`已编排 ${arranged.arranged} 人：使用 ${arranged.rooms} 个考场、${arranged.sites} 个考点${arranged.seed ? `，种子 ${arranged.seed}` : '（随机种子已记入审计日志）'}；每位考生各科目同一座位`}
            description={arranged.note ?? undefined}
          />
        )}
        {!published && unseatedNotes.length > 0 && (!arranged || unseatedNotes.some((n) => n !== arranged.note)) && (
          <Alert type="warning" showIcon title={unseatedNotes.join('；')} />
        )}
        <Space wrap>
          <span>打印时间</span>
          <DatePicker.RangePicker
            aria-label="打印时间"
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={window}
            allowClear={false}
            onChange={(v) => v && v[0] && v[1] && setPrintWindow([v[0], v[1]])}
          />
          <Popconfirm
            title={published ? '更新打印时间？' : '发布准考证？'}
            description={
              published ? (
                '准考证号不变。'
              ) : unseatedNotes.length > 0 ? (
                <div style={{ maxWidth: 360 }}>
                  <p style={{ margin: '0 0 4px', color: '#cf1322' }}>{unseatedNotes.join('；')}。</p>
                  发布后编排固定，这些考生暂时没有准考证；他们改报后可在本页“补排座位”，其他考生不动。也可等改报期结束后重新编排再发布。
                </div>
              ) : (
                '发布后准考证号固定不变，考生在打印时间内可查看和下载准考证。'
              )
            }
            okText={published ? '更新' : unseatedNotes.length > 0 ? '仍然发布' : '发布'}
            cancelText="返回"
            onConfirm={onPublish}
            disabled={examId === undefined || !o || o.seated === 0}
          >
            <Button type="primary" loading={publish.isPending} disabled={examId === undefined || !o || o.seated === 0}>
              {published ? '更新打印时间' : '发布准考证'}
            </Button>
          </Popconfirm>
        </Space>
      </Space>
    </Card>
  );
}
