import { CameraOutlined } from '@ant-design/icons';
import { PHOTO_MAX_BYTES } from '@zhikaoyun/shared';
import { App, Button, Upload } from 'antd';
import { uploadPhoto, useUserInfoMutation } from '../api';

/** Picks a JPG/PNG (camera or album on a phone) and uploads it; the server re-encodes it. */
export function PhotoUploadButton({ hasPhoto }: { hasPhoto: boolean }) {
  const { message } = App.useApp();
  const mutation = useUserInfoMutation(uploadPhoto);
  return (
    <Upload
      accept="image/jpeg,image/png"
      showUploadList={false}
      beforeUpload={(file) => {
        if (!['image/jpeg', 'image/png'].includes(file.type)) {
          void message.error('只支持 JPG 或 PNG 格式的照片');
          return Upload.LIST_IGNORE;
        }
        if (file.size > PHOTO_MAX_BYTES) {
          void message.error(`照片不能超过 ${PHOTO_MAX_BYTES / 1024 / 1024} MB，请压缩后重新上传`);
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={({ file, onSuccess, onError }) => {
        mutation.mutate(file as File, {
          onSuccess: (info) => {
            void message.success('照片已上传');
            onSuccess?.(info);
          },
          onError: (err) => onError?.(err as Error),
        });
      }}
    >
      <Button icon={<CameraOutlined />} loading={mutation.isPending} block size="large">
        {hasPhoto ? '更换证件照' : '上传证件照'}
      </Button>
    </Upload>
  );
}
