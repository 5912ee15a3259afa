import { DownloadOutlined, PlusOutlined, ScanOutlined, UploadOutlined } from '@ant-design/icons';
import { SITE_SHEET_COLUMNS, type ArrangementOverview, type ArrangeSeatsResult, type SiteImportResult } from '@zhikaoyun/shared';
import { Alert, App, Button, Card, DatePicker, Descriptions, Input, InputNumber, Popconfirm, Space, Table, Tag, Upload } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { fromOfficePickerValue, officeNowPickerValue, toOfficePickerValue } from '../../../../components/console/office-time';
import { formatDateTime } from '../../../../components/format';
import {
  useArrangeLateSeats,
  useArrangeSeats,
  useDownloadRoomSheets,
  useExportArrangement,
  useImportSites,
  useOverview,
  usePublishTickets,
  useSaveRoom,
} from './api';
import { useExamSubjects, type ExamSubject } from '../../../../lib/api/console-exams';
import { ImportErrorsDialog } from '../../../../components/console/ImportErrorsDialog';
import { SiteModal, SubjectModal } from './ArrangementEditors';
import { MoveSeatCard } from './MoveSeatCard';

type Site = ArrangementOverview['sites'][number];
type Room = Site['rooms'][number];

/** One room's seats, edited in place (before tickets are published). */
function RoomSeats({ room, fixed }: { room: Room; fixed: boolean }) {
  const [seats, setSeats] = useState<number | null>(room.seats);
  const save = useSaveRoom();
  const { message } = App.useApp();
  const changed = seats !== null && seats !== room.seats;
  return (
    <Space size={4}>
      <InputNumber
        aria-label={`第 ${room.code} 考场座位数`}
        size="small"
        min={1}
        max={99}
        precision={0}
        value={seats}
        disabled={fixed}
        onChange={setSeats}
        style={{ width: 72 }}
      />
      {changed && (
        <Button
          size="small"
          type="link"
          loading={save.isPending}
          onClick={() =>
            void save
              .mutateAsync({ roomId: room.id, seats })
              .then(() => void message.success(`第 ${room.code} 考场已改为 ${seats} 座`))
              .catch(() => undefined)
          }
        >
          保存
        </Button>
      )}
    </Space>
  );
}

/**
 * 考场编排: an exam's subjects, sites and rooms (one by one or from Excel), the seat arrangement
 * with an optional seed, publishing the tickets with a print window, and the room sheets and
 * export. The exam is in the address (`?examId=`).
 */
export default function ArrangementPage() {
  const { examId, exams, chooseExam } = useExamParam();
  const exam = exams.data?.find((e) => e.id === examId);
  const subjects = useExamSubjects(examId);
  const overview = useOverview(examId);
  const arrange = useArrangeSeats();
  const arrangeLate = useArrangeLateSeats();
  const publish = usePublishTickets();
  const importSheet = useImportSites();
  const sheets = useDownloadRoomSheets();
  const exporting = useExportArrangement();
  const { message } = App.useApp();
  const [subjectEditor, setSubjectEditor] = useState<ExamSubject | 'new' | null>(null);
  const [siteEditor, setSiteEditor] = useState<Site | 'new' | null>(null);
  const [importResult, setImportResult] = useState<SiteImportResult | null>(null);
  const [seed, setSeed] = useState('');
  const [arranged, setArranged] = useState<(ArrangeSeatsResult & { seed: string }) | null>(null);
  const [printWindow, setPrintWindow] = useState<[Dayjs, Dayjs] | null>(null);
  const o = overview.data;
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

  const onImport = (file: File) => {
    if (examId === undefined) return;
    void importSheet
      .mutateAsync({ examId, file })
      .then((r) => {
        if (r.errors.length === 0) void message.success(`导入完成：新增 ${r.created} 个考点`);
        else setImportResult(r);
      })
      .catch(() => undefined);
  };
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
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">考场编排</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <ButtonLink icon={<ScanOutlined />} to={`/admin/door-check${examId !== undefined ? `?examId=${examId}` : ''}`}>
          验证准考证
        </ButtonLink>
        <Button
          icon={<DownloadOutlined />}
          disabled={examId === undefined || !o || o.seated === 0}
          loading={exporting.isPending}
          onClick={() => examId !== undefined && exporting.mutate({ examId, examName: exam?.name ?? String(examId) })}
        >
          导出编排表
        </Button>
      </div>

      {o && (
        <Descriptions
          size="small"
          bordered
          column={4}
          style={{ marginBottom: 16, background: '#fff' }}
          items={[
            { key: 'confirmed', label: '已确认考生', children: `${o.confirmed} 人` },
            {
              key: 'seated',
              label: '已编排',
              children: (
                <span>
                  {o.seated} 人
                  {o.awaitingSwitch > 0 && (
                    <Tag color="orange" style={{ marginInlineStart: 8 }}>
                      {o.awaitingSwitch} 人岗位已取消待改报
                    </Tag>
                  )}
                </span>
              ),
            },
            {
              key: 'seats',
              label: '座位',
              children: `${o.sites.reduce((n, s) => n + s.seats, 0)} 座（${o.sites.reduce((n, s) => n + s.rooms.length, 0)} 个考场）`,
            },
            { key: 'seed', label: '编排种子', children: o.seed ?? '未编排' },
            {
              key: 'tickets',
              label: '准考证',
              span: 2,
              children: published ? (
                <span>
                  <Tag color="green">已发布</Tag>打印时间 {formatDateTime(o.printStart!)} 至 {formatDateTime(o.printEnd!)}
                </span>
              ) : (
                <Tag>未发布</Tag>
              ),
            },
            {
              key: 'template',
              label: '准考证号',
              span: 2,
              children: `考试代码 ${o.examCode}，模板 ${o.ticketTemplate}（在考试管理中修改）`,
            },
          ]}
        />
      )}

      <Card
        size="small"
        title="考试科目"
        style={{ marginBottom: 16 }}
        extra={
          <Button icon={<PlusOutlined />} disabled={examId === undefined || published} onClick={() => setSubjectEditor('new')}>
            新增科目
          </Button>
        }
      >
        <Table
          rowKey="id"
          size="small"
          loading={subjects.isLoading}
          dataSource={subjects.data}
          pagination={false}
          columns={[
            { title: '科目', dataIndex: 'name' },
            { title: '开考时间', dataIndex: 'startAt', render: (v: string) => formatDateTime(v) },
            { title: '结束时间', dataIndex: 'endAt', render: (v: string) => formatDateTime(v) },
            {
              title: '操作',
              width: 90,
              render: (_: unknown, s: ExamSubject) => (
                <Button type="link" disabled={published} onClick={() => setSubjectEditor(s)}>
                  编辑
                </Button>
              ),
            },
          ]}
          locale={{ emptyText: examId === undefined ? '请先选择考试' : '还没有科目：先添加科目及考试时间' }}
        />
      </Card>

      <Card
        size="small"
        title="考点与考场"
        style={{ marginBottom: 16 }}
        extra={
          <Space>
            <Button icon={<PlusOutlined />} disabled={examId === undefined || published} onClick={() => setSiteEditor('new')}>
              新增考点
            </Button>
            <Upload
              accept=".xlsx"
              showUploadList={false}
              disabled={examId === undefined || published}
              beforeUpload={(file) => {
                onImport(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={importSheet.isPending} disabled={examId === undefined || published}>
                导入 Excel
              </Button>
            </Upload>
          </Space>
        }
      >
        <p className="console-hint">
          导入表第一行为列名：{SITE_SHEET_COLUMNS.join('、')}
          （城市可不填）。表中有任何错误时不会导入，并逐行列出问题。展开考点可修改单个考场的座位数、下载该考场的签到表。
        </p>
        <Table
          rowKey="id"
          size="small"
          loading={overview.isLoading}
          dataSource={o?.sites}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          expandable={{
            expandedRowRender: (site: Site) => (
              <Table
                rowKey="id"
                size="small"
                pagination={false}
                dataSource={site.rooms}
                columns={[
                  { title: '考场', dataIndex: 'code', width: 80, render: (c: string) => `第 ${c} 考场` },
                  { title: '座位数', width: 160, render: (_: unknown, r: Room) => <RoomSeats room={r} fixed={published} /> },
                  { title: '已编排', dataIndex: 'seated', width: 90 },
                  {
                    title: '下载',
                    render: (_: unknown, r: Room) => (
                      <Button
                        type="link"
                        size="small"
                        disabled={r.seated === 0}
                        onClick={() =>
                          examId !== undefined &&
                          sheets.mutate({ examId, siteId: site.id, roomId: r.id, label: `${site.name}-第${r.code}考场` })
                        }
                      >
                        签到表
                      </Button>
                    ),
                  },
                ]}
              />
            ),
          }}
          columns={[
            { title: '代码', dataIndex: 'code', width: 64 },
            { title: '考点名称', dataIndex: 'name' },
            { title: '地址', dataIndex: 'address' },
            { title: '城市', dataIndex: 'city', width: 90 },
            { title: '考场', width: 70, render: (_: unknown, s: Site) => s.rooms.length },
            { title: '座位', dataIndex: 'seats', width: 70 },
            { title: '已编排', dataIndex: 'seated', width: 80 },
            {
              title: '操作',
              width: 190,
              render: (_: unknown, s: Site) => (
                <Space size={0}>
                  <Button type="link" disabled={published} onClick={() => setSiteEditor(s)}>
                    编辑
                  </Button>
                  <Button
                    type="link"
                    disabled={s.seated === 0}
                    loading={sheets.isPending && sheets.variables.siteId === s.id && sheets.variables.roomId === undefined}
                    onClick={() => examId !== undefined && sheets.mutate({ examId, siteId: s.id, label: s.name })}
                  >
                    签到表（全部考场）
                  </Button>
                </Space>
              ),
            },
          ]}
          locale={{ emptyText: examId === undefined ? '请先选择考试' : '还没有考点：新增考点或从 Excel 导入' }}
        />
      </Card>

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

      {examId !== undefined && o && o.seated > 0 && <MoveSeatCard examId={examId} sites={o.sites} />}

      {examId !== undefined && (
        <>
          <SubjectModal
            examId={examId}
            subject={subjectEditor === 'new' ? null : subjectEditor}
            open={subjectEditor !== null}
            onClose={() => setSubjectEditor(null)}
          />
          <SiteModal
            examId={examId}
            site={siteEditor === 'new' ? null : siteEditor}
            open={siteEditor !== null}
            onClose={() => setSiteEditor(null)}
          />
        </>
      )}
      <ImportErrorsDialog title="考点表有错误，未导入" errors={importResult?.errors ?? null} onClose={() => setImportResult(null)} />
    </div>
  );
}
