import type { ArrangementOverview, SeatedCandidate } from '@zhikaoyun/shared';
import { Alert, App, Button, Card, Input, InputNumber, Modal, Select, Space, Table } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../../components/format';
import { useFindSeated, useMoveSeat } from './api';
import './move-seat.css';

const errorText = (err: unknown) => (err instanceof Error ? err.message : '操作失败，请稍后再试');

/** Where one seat is: 公共基础知识 第一中学 01 考场 03 号. */
const place = (s: SeatedCandidate['seats'][number]) => `${s.site} ${s.room} 考场 ${String(s.seat).padStart(2, '0')} 号`;

function MoveSeatModal({
  examId,
  candidate,
  sites,
  onClose,
  onMoved,
}: {
  examId: number;
  candidate: SeatedCandidate;
  sites: ArrangementOverview['sites'];
  onClose: () => void;
  onMoved: () => void;
}) {
  const { message } = App.useApp();
  const move = useMoveSeat();
  const subjects = candidate.seats;
  const [roomId, setRoomId] = useState<number | undefined>(undefined);
  const [seatNo, setSeatNo] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const room = sites.flatMap((s) => s.rooms).find((r) => r.id === roomId);
  const submit = () => {
    if (roomId === undefined || seatNo === null) {
      setError('请选择考场并填写座位号');
      return;
    }
    setError(null);
    move
      .mutateAsync({ examId, applicationId: candidate.applicationId, roomId, seatNo })
      .then((r) => {
        void message.success(`${candidate.name} 的座位已调动${r.ticketNo ? `，准考证号 ${r.ticketNo} 不变` : ''}`);
        onMoved();
      })
      .catch((err: unknown) => setError(errorText(err)));
  };
  return (
    <Modal
      open
      title={`调动座位：${candidate.name}${candidate.ticketNo ? `（${candidate.ticketNo}）` : ''}`}
      okText="调动"
      cancelText="取消"
      confirmLoading={move.isPending}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <div>
          现在的座位：
          {subjects.map((s) => (
            <div key={s.subjectId} className="console-hint">
              {s.subject}（{formatDateTime(s.startAt)}）：{place(s)}
            </div>
          ))}
        </div>
        <p className="console-hint">考生各科目都坐同一座位，调动后全部科目都改到新座位。</p>
        <label className="move-seat__field">
          <span>考场</span>
          <Select
            aria-label="调往考场"
            placeholder="请选择考场"
            value={roomId}
            onChange={(v) => {
              setRoomId(v);
              setError(null);
            }}
            showSearch={{ optionFilterProp: 'label' }}
            options={sites.map((s) => ({
              label: `${s.code} ${s.name}`,
              options: s.rooms.map((r) => ({ value: r.id, label: `${s.name} ${r.code} 考场（${r.seats} 座）` })),
            }))}
          />
        </label>
        <label className="move-seat__field">
          <span>座位号</span>
          <InputNumber
            aria-label="调往座位号"
            min={1}
            max={99}
            precision={0}
            value={seatNo}
            onChange={(v) => {
              setSeatNo(v);
              setError(null);
            }}
            placeholder={room ? `1-${room.seats}` : '座位号'}
            style={{ width: 160 }}
          />
        </label>
        {error && <Alert type="error" showIcon title={error} />}
      </Space>
    </Modal>
  );
}

/** 调动座位: find a seated candidate by ticket number or name, then give them another room and seat. */
export function MoveSeatCard({ examId, sites }: { examId: number; sites: ArrangementOverview['sites'] }) {
  const find = useFindSeated();
  const [q, setQ] = useState('');
  const [found, setFound] = useState<SeatedCandidate[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [moving, setMoving] = useState<SeatedCandidate | null>(null);
  const search = (text: string) => {
    setError(null);
    find
      .mutateAsync({ examId, q: text })
      .then(setFound)
      .catch((err: unknown) => {
        setFound(null);
        setError(errorText(err));
      });
  };
  return (
    <Card size="small" title="调动座位" className="move-seat" style={{ marginTop: 16 }}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Input.Search
          aria-label="准考证号或姓名"
          placeholder="输入准考证号或姓名查找已编排的考生"
          enterButton="查找"
          value={q}
          maxLength={50}
          onChange={(e) => setQ(e.target.value)}
          onSearch={search}
          loading={find.isPending}
          style={{ maxWidth: 420 }}
        />
        {error && <Alert type="error" showIcon title={error} />}
        {found && (
          <Table
            size="small"
            rowKey="applicationId"
            pagination={false}
            dataSource={found}
            locale={{ emptyText: '没有找到已编排的考生，请核对准考证号或姓名' }}
            columns={[
              { title: '姓名', dataIndex: 'name', width: 120 },
              { title: '准考证号', dataIndex: 'ticketNo', width: 160, render: (v: string | null) => v ?? '未发布' },
              {
                title: '座位',
                render: (_: unknown, c: SeatedCandidate) =>
                  c.seats.map((s) => (
                    <div key={s.subjectId}>
                      {s.subject}：{place(s)}
                    </div>
                  )),
              },
              {
                title: '操作',
                width: 100,
                render: (_: unknown, c: SeatedCandidate) => (
                  <Button size="small" type="link" onClick={() => setMoving(c)}>
                    调动座位
                  </Button>
                ),
              },
            ]}
          />
        )}
      </Space>
      {moving && (
        <MoveSeatModal
          examId={examId}
          candidate={moving}
          sites={sites}
          onClose={() => setMoving(null)}
          onMoved={() => {
            setMoving(null);
            if (q.trim()) search(q);
          }}
        />
      )}
    </Card>
  );
}
