export default {
  "$id": "https://compliance-evidence.dev/schemas/action-create/v1",
  "title": "ActionPutInput",
  "description": "PUT /actions/{org}: creates or updates a notification action.",
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
          "ON_COMPLIANT_ENV",
          "ON_STARTED_TRAIL",
          "ON_ATTESTED_PROVENANCE",
          "ON_ATTESTATION",
          "ON_APPROVAL",
          "ON_RELEASE"
        ]
      }
    },
    "environments": {
      "description": "Environments the action watches.",
      "type": "array",
      "items": {
        "type": "string"
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
