import {
  examSiteInputSchema,
  examSubjectInputSchema,
  MAX_ROOMS_PER_SITE,
  MAX_SEATS_PER_ROOM,
  type ArrangementOverview,
} from '@zhikaoyun/shared';
import { App, DatePicker, Form, Input, InputNumber, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { fromOfficePickerValue, officeNowPickerValue, toOfficePickerValue } from '../../../../components/console/office-time';
import { zodRule } from '../../../../lib/form-rules';
import type { ExamSubject } from '../../../../lib/api/console-exams';
import { useSaveSite, useSaveSubject } from './api';
import { FormModal } from '../../../../components/console/FormModal';

type Site = ArrangementOverview['sites'][number];

/** Adds or edits a subject (科目): its name and the office-time window it is sat in. */
export function SubjectModal({
  examId,
  subject,
  open,
  onClose,
}: {
  examId: number;
  subject: ExamSubject | null;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string; time: [Dayjs, Dayjs] }>();
  const save = useSaveSubject();
  const { message } = App.useApp();
  useEffect(() => {
    if (!open) return;
    const start = officeNowPickerValue().add(30, 'day').startOf('day').hour(9);
    form.setFieldsValue(
      subject
        ? { name: subject.name, time: [toOfficePickerValue(subject.startAt), toOfficePickerValue(subject.endAt)] }
        : { name: '', time: [start, start.hour(11)] },
    );
  }, [open, subject, form]);
  const submit = async (v: { name: string; time: [Dayjs, Dayjs] }) => {
    const input = {
      examId,
      ...(subject ? { id: subject.id } : {}),
      name: v.name,
      startAt: fromOfficePickerValue(v.time[0]),
      endAt: fromOfficePickerValue(v.time[1]),
    };
    const checked = examSubjectInputSchema.safeParse(input);
    if (!checked.success) {
      void message.error(checked.error.issues[0]?.message ?? '填写有误');
      return;
    }
    await save.mutateAsync(input);
    void message.success('科目已保存');
    onClose();
  };
  return (
    <FormModal title={subject ? '编辑科目' : '新增科目'} open={open} onClose={onClose} form={form} saving={save.isPending}>
      <Form form={form} name="subject-form" layout="vertical" requiredMark={false} onFinish={(v) => void submit(v).catch(() => undefined)}>
        <Form.Item name="name" label="科目名称" rules={[zodRule(examSubjectInputSchema.shape.name)]}>
          <Input maxLength={50} placeholder="如：公共基础知识" />
        </Form.Item>
        <Form.Item
          name="time"
          label="考试时间"
          extra="开考时间相同的科目为同一场次：同一考场同一场次只考一个科目。"
          rules={[{ required: true, message: '请选择考试时间' }]}
        >
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

interface SiteValues {
  name: string;
  address: string;
  city: string;
  rooms: number;
  seatsPerRoom: number;
}

/** Adds or edits a site (考点): rooms are numbered 01, 02, ... with the same seats each. */
export function SiteModal({ examId, site, open, onClose }: { examId: number; site: Site | null; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<SiteValues>();
  const save = useSaveSite();
  const { message } = App.useApp();
  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      site
        ? { name: site.name, address: site.address, city: site.city, rooms: site.rooms.length, seatsPerRoom: site.rooms[0]?.seats ?? 30 }
        : { name: '', address: '', city: '', rooms: 10, seatsPerRoom: 30 },
    );
  }, [open, site, form]);
  const submit = async (v: SiteValues) => {
    await save.mutateAsync({ examId, ...(site ? { id: site.id } : {}), ...v, city: v.city ?? '' });
    void message.success('考点已保存');
    onClose();
  };
  const shape = examSiteInputSchema.shape;
  return (
    <FormModal title={site ? `编辑考点 ${site.code}` : '新增考点'} open={open} onClose={onClose} form={form} saving={save.isPending}>
      <Form form={form} name="site-form" layout="vertical" requiredMark={false} onFinish={(v) => void submit(v).catch(() => undefined)}>
        <Form.Item name="name" label="考点名称" rules={[zodRule(shape.name)]}>
          <Input maxLength={100} placeholder="如：市第一中学考点" />
        </Form.Item>
        <Form.Item name="address" label="地址" rules={[zodRule(shape.address)]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="city" label="城市（选填）">
          <Input maxLength={50} />
        </Form.Item>
        <Space size="large">
          <Form.Item name="rooms" label="考场数" rules={[zodRule(shape.rooms)]}>
            <InputNumber min={1} max={MAX_ROOMS_PER_SITE} precision={0} />
          </Form.Item>
          <Form.Item name="seatsPerRoom" label="每场座位数" rules={[zodRule(shape.seatsPerRoom)]}>
            <InputNumber min={1} max={MAX_SEATS_PER_ROOM} precision={0} />
          </Form.Item>
        </Space>
        {site && (
          <p className="console-hint">
            保存会按考场数重建本考点的考场（01、02……）；已编排后请先重新编排。单个考场的座位数可在考点列表中修改。
          </p>
        )}
      </Form>
    </FormModal>
  );
}
