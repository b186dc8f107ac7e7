export default {
  "$id": "https://compliance-evidence.dev/schemas/environment-action-create/v1",
  "title": "EnvironmentActionPutInput",
  "description": "PUT /actions/{org}/environments: a notification on environment events.",
  "type": "object",
  "properties": {
    "name": {
      "description": "The action's name.",
      "type": "string",
      "minLength": 1
    },
    "type": {
      "description": "The action's kind.",
      "type": "string"
    },
    "targets": {
      "description": "Where notifications go.",
      "type": "array",
      "items": {
        "description": "Where a notification goes: `type` plus the target's own settings (e.g. `webhook` URL, `channel`, `email`).",
        "type": "object",
        "properties": {
          "type": {
            "description": "The target kind.",
            "enum": [
              "SLACK",
              "WEBHOOK",
              "EMAIL"
            ]
          }
        },
        "required": [
          "type"
        ]
      }
    },
    "triggers": {
      "description": "Events that send a notification.",
      "type": "array",
      "items": {
        "enum": [
          "ON_STARTED_ARTIFACT",
          "ON_EXITED_ARTIFACT",
          "ON_CHANGED_ARTIFACT",
          "ON_SCALED_ARTIFACT",
          "ON_ALLOWED_ARTIFACT",
          "ON_NON_COMPLIANT_ENV",
          "ON_COMPLIANT_ENV"
        ]
      }
    },
    "environments": {
      "description": "Environments the action watches.",
      "type": "array",
      "items": {
        "type": "string"
      }
    }
  },
  "required": [
    "name",
    "targets",
    "triggers"
  ],
  "additionalProperties": false
} as const;
