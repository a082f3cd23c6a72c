-- wrk script: POST /api/v1/departments with a unique name per request.
-- The token comes from the TOKEN environment variable.
local counter = 0
local prefix = ""

function setup(thread)
  thread:set("id", tostring(math.random(1, 1000000000)))
end

function init(args)
  prefix = id or tostring(math.random(1, 1000000000))
end

function request()
  counter = counter + 1
  local body = string.format('{"departmentName":"bench-%s-%d"}', prefix, counter)
  return wrk.format("POST", "/api/v1/departments", {
    ["Content-Type"] = "application/json",
    ["Authorization"] = "Bearer " .. os.getenv("TOKEN"),
  }, body)
end
