/** The access request form of tasks: every typed field body of the spec. */
import type { TaskForm } from '../../shared/api-types';
import type { Random } from '../random';
import type { BuildContext } from './context';

export function form(ctx: BuildContext, r: Random): TaskForm {
  return {
    id: r.id(),
    displayName: 'Access request details',
    description: 'Tell the approvers why you need this access',
    fieldGroups: [
      {
        name: 'main',
        displayName: 'Request',
        helpText: '',
        default: true,
        fields: ['justification', 'duration', 'ticket', 'urgent', 'attachments', 'labels', 'tags', 'oauth'],
      },
    ],
    fieldRelationships: [{ fieldNames: ['ticket', 'justification'], atLeastOne: {} }],
    fields: [
      {
        name: 'justification',
        displayName: 'Justification',
        description: '',
        readOnly: false,
        required: true,
        stringField: { defaultValue: '', placeholder: 'Why?', rules: { minLen: '10', maxLen: '1000' }, textField: { multiline: true } },
      },
      {
        name: 'duration',
        displayName: 'Duration',
        description: '',
        readOnly: false,
        required: true,
        stringField: {
          defaultValue: '7d',
          selectField: {
            options: [
              { value: '1d', displayName: '1 day' },
              { value: '7d', displayName: '7 days' },
            ],
            type: 'SELECT_TYPE_DROPDOWN',
          },
        },
      },
      {
        name: 'ticket',
        displayName: 'Ticket',
        description: '',
        readOnly: false,
        required: false,
        stringField: {
          defaultValue: '',
          placeholder: 'JIRA-123',
          rules: { pattern: '^[A-Z]+-[0-9]+$' },
          textField: { multiline: false },
        },
      },
      {
        name: 'urgent',
        displayName: 'Urgent',
        description: '',
        readOnly: false,
        required: false,
        boolField: { defaultValue: false, checkboxField: {} },
      },
      {
        name: 'count',
        displayName: 'Seats',
        description: '',
        readOnly: false,
        required: false,
        int64Field: { defaultValue: '1', placeholder: '', rules: { gte: '1', lte: '50' } },
      },
      {
        name: 'attachments',
        displayName: 'Evidence',
        description: '',
        readOnly: false,
        required: false,
        fileField: { acceptedFileTypes: ['.pdf', '.png'], maxFileSize: '10485760' },
      },
      { name: 'labels', displayName: 'Labels', description: '', readOnly: false, required: false, stringMapField: { defaultValue: {} } },
      {
        name: 'tags',
        displayName: 'Tags',
        description: '',
        readOnly: false,
        required: false,
        stringSliceField: { defaultValues: [], placeholder: 'tag' },
      },
      { name: 'oauth', displayName: 'Connect account', description: '', readOnly: false, required: false, oauth2Field: {} },
    ],
  };
}
