def leap_year(year):
    if year % 400 == 0:
        return "True"
    if year % 100 == 0:
        return "False"
    return str(year % 4 == 0)
