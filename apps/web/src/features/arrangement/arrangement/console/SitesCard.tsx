import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { SITE_SHEET_COLUMNS, type ArrangementOverview, type SiteImportResult } from '@zhikaoyun/shared';
import { App, Button, Card, InputNumber, Space, Table, Upload } from 'antd';
import { useState } from 'react';
import { ImportErrorsDialog } from '../../../../components/console/ImportErrorsDialog';
import { useDownloadRoomSheets, useDownloadSiteTemplate, useImportSites, useSaveRoom } from './api';
import { SiteModal } from './ArrangementEditors';

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
 * 考点与考场: the exam's sites and their rooms, one by one or from an Excel sheet, each room's
 * seats, and the sign-in sheets to download.
 */
export function SitesCard({
  examId,
  examName,
  o,
  loading,
}: {
  examId: number | undefined;
  examName: string;
  o: ArrangementOverview | undefined;
  loading: boolean;
}) {
  const { message } = App.useApp();
  const importSheet = useImportSites();
  const template = useDownloadSiteTemplate();
  const sheets = useDownloadRoomSheets();
  const [siteEditor, setSiteEditor] = useState<Site | 'new' | null>(null);
  const [importResult, setImportResult] = useState<SiteImportResult | null>(null);
  const published = o?.ticketsPublishedAt != null;
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

  return (
    <>
      <Card
        size="small"
        title="考点与考场"
        style={{ marginBottom: 16 }}
        extra={
          <Space>
            <Button icon={<PlusOutlined aria-hidden />} disabled={examId === undefined || published} onClick={() => setSiteEditor('new')}>
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
              <Button icon={<UploadOutlined aria-hidden />} loading={importSheet.isPending} disabled={examId === undefined || published}>
                导入 Excel
              </Button>
            </Upload>
            <Button
              icon={<DownloadOutlined aria-hidden />}
              disabled={examId === undefined}
              loading={template.isPending}
              onClick={() => examId !== undefined && template.mutate({ examId, examName })}
            >
              下载模板
            </Button>
          </Space>
        }
      >
        <p className="console-hint">
          导入表第一行为列名：{SITE_SHEET_COLUMNS.join('、')}
          （城市可不填），可先“下载模板”填写后导入。表中有任何错误时不会导入，并逐行列出问题。展开考点可修改单个考场的座位数、下载该考场的签到表。
        </p>
        <Table
          rowKey="id"
          size="small"
          loading={loading}
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

      {examId !== undefined && (
        <SiteModal
          examId={examId}
          site={siteEditor === 'new' ? null : siteEditor}
          open={siteEditor !== null}
          onClose={() => setSiteEditor(null)}
        />
      )}
      <ImportErrorsDialog title="考点表有错误，未导入" errors={importResult?.errors ?? null} onClose={() => setImportResult(null)} />
    </>
  );
}
