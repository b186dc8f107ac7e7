export default {
  "$id": "https://compliance-evidence.dev/schemas/flow-action-create/v1",
  "title": "FlowActionPutInput",
  "description": "PUT /actions/{org}/flows: a notification on flow events.",
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
          "ON_STARTED_TRAIL",
          "ON_ATTESTED_PROVENANCE",
          "ON_ATTESTATION",
          "ON_APPROVAL",
          "ON_RELEASE"
        ]
      }
    },
    "flows": {
      "description": "Flows the action watches.",
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
